import type { RuntimeEndpoint } from './files'

/**
 * Acknowledged output, an extension of this project's runtime (E2B's envd has none): a Start or
 * Connect that sends `X-Output-Window: <bytes>` and gets the header back, with `X-Output-Stream`,
 * acknowledges the output it has handled; the runtime holds the process back while more than the
 * window is unacknowledged.
 */
export const outputWindowHeader = 'X-Output-Window'
export const outputStreamHeader = 'X-Output-Stream'

/** Says that a stream's output up to `offset` (absolute, as X-Replay-From) has been handled. */
export async function acknowledgeOutput(
  endpoint: RuntimeEndpoint,
  stream: string,
  offset: number,
): Promise<void> {
  const query = new URLSearchParams({ stream, offset: String(offset) })
  const res = await fetch(`${endpoint.runtimeUrl}/output-ack?${query}`, {
    method: 'POST',
    headers: endpoint.accessToken ? { 'X-Access-Token': endpoint.accessToken } : {},
  })
  if (!res.ok) throw new Error(`output acknowledgement failed: HTTP ${res.status} ${await res.text()}`)
}
