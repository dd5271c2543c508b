/**
 * Takes up to `limit` bytes from the front of a queue of chunks, joined into one array, in order;
 * a chunk only partly taken stays at the front with what is left of it. With `whole`, chunks are
 * never cut: as many whole ones as fit, and the first one whole even if it alone is over `limit`
 * (input others write to as well, whose writes must land unbroken).
 */
export function takeBytes(queue: Uint8Array[], limit: number, whole = false): Uint8Array {
  let total = 0
  if (whole) {
    for (const chunk of queue) {
      if (total > 0 && total + chunk.length > limit) break
      total += chunk.length
    }
  } else
    total = Math.min(
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
