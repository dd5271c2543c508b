/** Host name of the stack's own example of an embedding page (another origin than the IDE's). */
export const demoHostName = 'embed-demo.localhost'

/** Which pages may frame the IDE at /embed, and whose commands run without asking. */
export interface EmbedPolicy {
  allowedOrigins: string[]
  trustedOrigins: string[]
}

/**
 * The policy: the configured origins (trusted ones are allowed too) plus the stack's demo page,
 * which is allowed but not trusted, so the demo shows the consent dialog.
 */
export function embedPolicy(
  config: { embedOrigins?: string[]; trustedOrigins?: string[] },
  demoOrigin: string,
): EmbedPolicy {
  const trustedOrigins = [...new Set(config.trustedOrigins ?? [])]
  const allowedOrigins = [...new Set([demoOrigin, ...(config.embedOrigins ?? []), ...trustedOrigins])]
  return { allowedOrigins, trustedOrigins }
}

/**
 * The CSP `frame-ancestors` for an IDE page: /embed may be framed by the allowed origins, every
 * other page by the IDE itself only (no clickjacking of the full IDE).
 */
export function frameAncestors(path: string, policy: EmbedPolicy): string {
  const sources = path === '/embed' ? ["'self'", ...policy.allowedOrigins] : ["'self'"]
  return `frame-ancestors ${sources.join(' ')}`
}
