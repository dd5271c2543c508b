// The sudo socket's wire: a request line of JSON, then frames both ways, each a kind byte, a
// 4-byte big-endian length and that many bytes. Shared by the runtime (server) and the `sudo`
// command in the sandbox (client); nothing else speaks it.

/** What `sudo` asks the runtime for. */
export interface SudoRequest {
  /** The command and its arguments, as the shell would run them. */
  argv: string[]
  /** Who to run it as (`-u`); root by default. */
  user: string
  /** The environment the command gets. */
  env: Record<string, string>
  cwd: string
  /** A terminal of this size when sudo's own stdin is one; pipes otherwise. */
  tty: { cols: number; rows: number } | null
}

/** Frame kinds from sudo to the runtime. */
export const toRuntime = {
  stdin: 0x69, // 'i'
  stdinEnd: 0x65, // 'e'
  resize: 0x72, // 'r': JSON {cols, rows}
  signal: 0x73, // 's': the signal's name
} as const

/** Frame kinds from the runtime to sudo. */
export const toSudo = {
  stdout: 0x6f, // 'o'
  stderr: 0x78, // 'x'
  exit: 0x71, // 'q': JSON {code}
  failed: 0x66, // 'f': why the command could not start, in words
} as const

/** Most a request line may take: argv and env of a command line, with room. */
export const maxRequestBytes = 1024 * 1024

export function frame(kind: number, payload: Uint8Array | string = new Uint8Array()): Buffer {
  const body = typeof payload === 'string' ? Buffer.from(payload) : Buffer.from(payload)
  const head = Buffer.alloc(5)
  head[0] = kind
  head.writeUInt32BE(body.length, 1)
  return Buffer.concat([head, body])
}

/** Splits a byte stream into frames as they complete. */
export class FrameReader {
  private buffered: Buffer = Buffer.alloc(0)

  constructor(private readonly onFrame: (kind: number, payload: Buffer) => void) {}

  push(chunk: Buffer): void {
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk])
    while (this.buffered.length >= 5) {
      const length = this.buffered.readUInt32BE(1)
      if (this.buffered.length < 5 + length) return
      const kind = this.buffered[0] as number
      const payload = this.buffered.subarray(5, 5 + length)
      this.buffered = this.buffered.subarray(5 + length)
      this.onFrame(kind, payload)
    }
  }
}
