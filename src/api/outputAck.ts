import { outputAckPath, outputFlushHeader, outputWindowHeader } from '../contract/runtimeExtensions'
import type { RuntimeEndpoint } from './files'

/** What the runtime answers an acknowledgement. */
export interface AckAnswer {
  /** The output before this offset was flushed by a Ctrl-C (when further on than acknowledged). */
  flushedTo?: number
  /** The window granted, when the acknowledgement asked for a new one. */
  window?: number
}

/**
 * Says that a stream's output up to `offset` (absolute, as X-Replay-From) has been handled, and
 * asks for a new `window` if given; answers the offset before which a Ctrl-C flushed the output,
 * when there is one further on, and the window granted.
 */
export async function acknowledgeOutput(
  endpoint: RuntimeEndpoint,
  stream: string,
  offset: number,
  window?: number,
): Promise<AckAnswer> {
  // The same URL for every ack of a stream, so the browser's CORS preflight is made once.
  const res = await fetch(`${endpoint.runtimeUrl}${outputAckPath}?${new URLSearchParams({ stream })}`, {
    method: 'POST',
    headers: {
      ...(endpoint.accessToken ? { 'X-Access-Token': endpoint.accessToken } : {}),
      ...(window !== undefined ? { [outputWindowHeader]: String(window) } : {}),
    },
    body: String(offset),
  })
  if (!res.ok) throw new Error(`output acknowledgement failed: HTTP ${res.status} ${await res.text()}`)
  const flushedTo = res.headers.get(outputFlushHeader)
  const granted = res.headers.get(outputWindowHeader)
  return {
    ...(flushedTo !== null ? { flushedTo: Number(flushedTo) } : {}),
    ...(granted !== null ? { window: Number(granted) } : {}),
  }
}
