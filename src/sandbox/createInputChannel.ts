import type { StreamInputTarget } from '../api/streamInputTransport'
import type { InputChannel } from './inputChannel'
import { InputQueue } from './inputQueue'
import { StreamInputChannel } from './streamInputChannel'

export interface InputChannelOptions {
  /** One SendInput call. */
  sendInput(data: Uint8Array): Promise<void>
  /** A SendInput call failed; its bytes wait for `retry`. */
  onError(err: unknown): void
  /** Where StreamInput goes, once the process is known. */
  streamTarget(): StreamInputTarget | undefined
  /** Feature detection (tests replace it). */
  supportsStreams?: () => boolean
  /** What the input is, for the one line a switch to SendInput logs ("terminal input"). */
  label?: string
  /** Never cut one write across two calls: others write to the same input (a relay). */
  wholeWrites?: boolean
}

/**
 * The input channel for one terminal: StreamInput where a request body can stream (the local
 * stack's tunnel in every browser; Chromium to an https runtime, which means HTTP/2), falling
 * back to SendInput for good at its first failure; SendInput everywhere else.
 */
export function createInputChannel(options: InputChannelOptions): InputChannel {
  return new StreamInputChannel({
    target: options.streamTarget,
    fallback: () => new InputQueue(options.sendInput, options.onError, undefined, options.wholeWrites),
    wholeWrites: options.wholeWrites ?? false,
    ...(options.supportsStreams ? { supportsStreams: options.supportsStreams } : {}),
    // Not an error to show: input goes on by SendInput. Said once, for whoever debugs it.
    onFallback: (reason) =>
      console.info(`${options.label ?? 'terminal input'}: StreamInput failed (${reason}); using SendInput`),
  })
}
