import type { IncomingMessage } from 'node:http'

/** One cookie's value from a request's Cookie header. */
export function cookieValue(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=')
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim()
  }
  return undefined
}

/** A Cookie header without the cookies whose names `drop` picks; undefined when nothing is left. */
export function withoutCookies(
  header: string | undefined,
  drop: (name: string) => boolean,
): string | undefined {
  const kept = (header ?? '')
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part !== '' && !drop(part.split('=')[0]?.trim() ?? ''))
  return kept.length > 0 ? kept.join('; ') : undefined
}
