// JSON-RPC over a language server's stdin and stdout, by vscode-jsonrpc (the library VS Code's own
// language client uses: Content-Length framing across any chunking, requests, cancellation).
// Loaded when the first server starts, so a page that never opens a file of a known language
// never downloads it.
import 'vscode-jsonrpc/browser'
import {
  createMessageConnection,
  Disposable,
  Emitter,
  type MessageConnection,
  ReadableStreamMessageReader,
  WriteableStreamMessageWriter,
} from 'vscode-jsonrpc'

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
  const writable = {
    onClose: (listener: () => void) => close.event(listener),
    onError: () => Disposable.create(() => {}),
    onEnd: (listener: () => void) => close.event(listener),
    write(chunk: Uint8Array | string): Promise<void> {
      input.write(typeof chunk === 'string' ? encoder.encode(chunk) : chunk)
      return Promise.resolve()
    },
    end() {},
  }
  const connection = createMessageConnection(
    new ReadableStreamMessageReader(readable, 'utf-8'),
    new WriteableStreamMessageWriter(writable, 'utf-8'),
  )
  return {
    connection,
    output: {
      data: (bytes) => data.fire(bytes),
      closed: () => close.fire(),
    },
  }
}
