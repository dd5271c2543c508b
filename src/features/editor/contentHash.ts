/**
 * A fingerprint of some bytes (two 32-bit multiply-xor lanes plus the length), to tell whether a
 * file on disk still holds what the editor loaded. Not cryptographic: it only has to tell honest
 * changes apart, synchronously and without a secure context (crypto.subtle needs one).
 */
export function contentHash(bytes: Uint8Array): string {
  // Lane a is FNV-1a; lane b uses another multiplier and a shift, so the lanes do not collide together.
  let a = 0x811c9dc5
  let b = 0x9747b28c
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i] as number
    a = Math.imul(a ^ byte, 0x01000193)
    b = Math.imul(b ^ byte, 0x5bd1e995)
    b ^= b >>> 15
  }
  const hex = (n: number) => (n >>> 0).toString(16).padStart(8, '0')
  return `${hex(a)}${hex(b)}:${bytes.length}`
}
