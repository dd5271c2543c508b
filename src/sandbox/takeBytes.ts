/**
 * Takes up to `limit` bytes from the front of a queue of chunks, joined into one array, in order;
 * a chunk only partly taken stays at the front with what is left of it.
 */
export function takeBytes(queue: Uint8Array[], limit: number): Uint8Array {
  const total = Math.min(
    limit,
    queue.reduce((sum, d) => sum + d.length, 0),
  )
  const out = new Uint8Array(total)
  let filled = 0
  while (filled < total) {
    const head = queue[0] as Uint8Array
    const part = head.subarray(0, total - filled)
    out.set(part, filled)
    filled += part.length
    if (part.length === head.length) queue.shift()
    else queue[0] = head.subarray(part.length)
  }
  return out
}
