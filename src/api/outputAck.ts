import { outputAckPath, outputFlushHeader } from '../contract/runtimeExtensions'
import type { RuntimeEndpoint } from './files'

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
  const res = await fetch(`${endpoint.runtimeUrl}${outputAckPath}?${new URLSearchParams({ stream })}`, {
    method: 'POST',
    headers: endpoint.accessToken ? { 'X-Access-Token': endpoint.accessToken } : {},
    body: String(offset),
  })
  if (!res.ok) throw new Error(`output acknowledgement failed: HTTP ${res.status} ${await res.text()}`)
  const flushedTo = res.headers.get(outputFlushHeader)
  return flushedTo === null ? undefined : Number(flushedTo)
}
