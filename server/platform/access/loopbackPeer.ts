import { isIP } from 'node:net'

/** Whether a socket's remote address is this machine (IPv4, IPv6, or IPv4 mapped into IPv6). */
export function isLoopbackPeer(address: string | undefined): boolean {
  if (!address) return false
  const plain = address.replace(/^::ffff:/, '')
  return plain === '::1' || (isIP(plain) === 4 && plain.startsWith('127.'))
}
