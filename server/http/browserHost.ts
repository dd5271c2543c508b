/** A Host header split into its name and port, as the browser sent it. */
export interface BrowserHost {
  /** Lower case; an IPv6 address keeps its brackets, e.g. `[::1]`. */
  name: string
  /** Empty when the Host header names none (the scheme's default port). */
  port: string
}

/** Parses a Host header; undefined when it is missing or malformed. */
export function browserHost(header: string | undefined): BrowserHost | undefined {
  const match = (header ?? '').toLowerCase().match(/^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::(\d{1,5}))?$/)
  if (!match?.[1]) return undefined
  return { name: match[1], port: match[2] ?? '' }
}
