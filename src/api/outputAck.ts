import type { RuntimeEndpoint } from './files'

/**
 * Acknowledged output, an extension of this project's runtime (E2B's envd has none): a Start or
 * Connect that sends `X-Output-Window: <bytes>` and gets the header back, with `X-Output-Stream`,
 * acknowledges the output it has handled; the runtime holds the process back while more than the
 * window is unacknowledged. After a Ctrl-C that flushes output (as a terminal drops its output
 * queue on an interrupt), the answer to that SendInput and to acknowledgements says where:
 * `X-Output-Flush`.
 */
export const outputWindowHeader = 'X-Output-Window'
export const outputStreamHeader = 'X-Output-Stream'
export const outputFlushHeader = 'X-Output-Flush'

/**
 * Says that a stream's output up to `offset` (absolute, as X-Replay-From) has been handled;
 * returns the offset before which a Ctrl-C flushed the output, when there is one further on.
 */
export async function acknowledgeOutput(
  endpoint: RuntimeEndpoint,
  stream: string,
  offset: number,
): Promise<number | undefined> {
  // The same URL for every ack of a stream, so the browser's CORS preflight is made once.
  const res = await fetch(`${endpoint.runtimeUrl}/output-ack?${new URLSearchParams({ stream })}`, {
    method: 'POST',
    headers: endpoint.accessToken ? { 'X-Access-Token': endpoint.accessToken } : {},
    body: String(offset),
  })
  if (!res.ok) throw new Error(`output acknowledgement failed: HTTP ${res.status} ${await res.text()}`)
  const flushedTo = res.headers.get(outputFlushHeader)
  return flushedTo === null ? undefined : Number(flushedTo)
}
