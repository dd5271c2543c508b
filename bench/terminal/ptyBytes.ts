/** The first `size` bytes of `line\n` repeated (as `head -c`), each \n as \r\n (as a PTY sends it). */
export function ptyBytes(line: string, size: number): Uint8Array {
  const unit = new TextEncoder().encode(`${line}\n`)
  const out = new Uint8Array(size + Math.floor(size / unit.length))
  let at = 0
  for (let i = 0; i < size; i++) {
    const byte = unit[i % unit.length] as number
    if (byte === 10) out[at++] = 13
    out[at++] = byte
  }
  return out
}
