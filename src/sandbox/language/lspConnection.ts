// JSON-RPC over a language server's stdin and stdout, by vscode-jsonrpc (the library VS Code's own
// language client uses: Content-Length framing across any chunking, requests, cancellation).
// Loaded when the first server starts, so a page that never opens a file of a known language
// never downloads it.
import 'vscode-jsonrpc/browser'
import {
  AbstractMessageWriter,
  CancellationTokenSource,
  createMessageConnection,
  Disposable,
  Emitter,
  type Message,
  type MessageConnection,
  type MessageWriter,
  ReadableStreamMessageReader,
} from 'vscode-jsonrpc'

export { CancellationTokenSource }

const encoder = new TextEncoder()

/** The bytes both ways of one server: what it writes, what to write to it, and when it is gone. */
export interface ByteDuplex {
  write(bytes: Uint8Array): void
}

/** The reading end, fed by the owner as the server's stdout arrives. */
export interface ServerOutput {
  data(bytes: Uint8Array): void
  closed(): void
}

/**
 * Writes each message as one frame (its header and body in one piece), at once. The library's
 * stream writer queues every write behind a lock released by a timer (setTimeout in a browser)
 * and writes the header and the body apart: milliseconds before each request leaves, on the path
 * of every completion.
 */
class StdinMessageWriter extends AbstractMessageWriter implements MessageWriter {
  constructor(private readonly input: ByteDuplex) {
    super()
  }

  write(message: Message): Promise<void> {
    const body = encoder.encode(JSON.stringify(message))
    const header = encoder.encode(`Content-Length: ${body.length}\r\n\r\n`)
    const frame = new Uint8Array(header.length + body.length)
    frame.set(header)
    frame.set(body, header.length)
    this.input.write(frame)
    return Promise.resolve()
  }

  end(): void {}
}

/** A JSON-RPC connection over `input`; the returned `output` takes the server's stdout. */
export function connectOverStdio(input: ByteDuplex): { connection: MessageConnection; output: ServerOutput } {
  const data = new Emitter<Uint8Array>()
  const close = new Emitter<void>()
  const readable = {
    onData: (listener: (bytes: Uint8Array) => void) => data.event(listener),
    onClose: (listener: () => void) => close.event(listener),
    onError: () => Disposable.create(() => {}),
    onEnd: (listener: () => void) => close.event(listener),
  }
  const connection = createMessageConnection(
    new ReadableStreamMessageReader(readable, 'utf-8'),
    new StdinMessageWriter(input),
  )
  return {
    connection,
    output: {
      data: (bytes) => data.fire(bytes),
      closed: () => close.fire(),
    },
  }
}
