// Talks to a launched sandbox's runtime the way a client does: Connect+JSON over fetch.
import { envelope, postStream, postUnary, splitEnvelopes } from '../../../runtime/testing/wire'

/**
 * Where a sandbox's runtime listens and the token it wants; with `sandboxId`, `port` is the
 * platform's, and calls go through its router (E2B's `E2b-Sandbox-Id` header), as a browser's do.
 */
export interface SandboxAddress {
  port: number
  token: string
  sandboxId?: string
}

const baseUrl = (sb: SandboxAddress) => `http://127.0.0.1:${sb.port}`
const auth = (sb: SandboxAddress) => ({
  'X-Access-Token': sb.token,
  ...(sb.sandboxId ? { 'E2b-Sandbox-Id': sb.sandboxId, 'E2b-Sandbox-Port': '49983' } : {}),
})
const decode = (b64: string) => Buffer.from(b64, 'base64').toString()

/** Runs `script` with bash (pipes, no terminal) and gathers its output and exit code. */
export async function runBash(
  sb: SandboxAddress,
  script: string,
): Promise<{ stdout: string; stderr: string; exitCode: number }> {
  const res = await postStream(
    baseUrl(sb),
    '/process.Process/Start',
    { process: { cmd: '/bin/bash', args: ['-c', script] } },
    auth(sb),
  )
  if (res.status !== 200) throw new Error(`Start answered ${res.status}`)
  let stdout = ''
  let stderr = ''
  let exitCode: number | undefined
  for (const { json } of res.envelopes) {
    const event = json?.event
    if (event?.data?.stdout) stdout += decode(event.data.stdout)
    if (event?.data?.stderr) stderr += decode(event.data.stderr)
    if (event?.end) exitCode = event.end.exitCode ?? 0
  }
  if (exitCode === undefined)
    throw new Error(`no end event: ${JSON.stringify(res.envelopes.map((e) => e.json))}`)
  return { stdout, stderr, exitCode }
}

/** A process in a terminal whose output is gathered as it arrives. */
export interface TerminalSession {
  pid: number
  /** Everything the terminal printed so far. */
  output(): string
  /** Resolves when the terminal next prints something (or its stream ends). */
  printed(): Promise<void>
  /** Types into the terminal. */
  type(text: string): Promise<void>
  /** Resolves when the stream has ended (process exit or abort). */
  ended: Promise<void>
  close(): void
}

/** Starts `cmd` in a terminal and streams its output in the background. */
export async function startTerminal(
  sb: SandboxAddress,
  cmd: string,
  args: string[],
  size = { cols: 100, rows: 30 },
): Promise<TerminalSession> {
  const controller = new AbortController()
  const res = await fetch(`${baseUrl(sb)}/process.Process/Start`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/connect+json', 'Connect-Protocol-Version': '1', ...auth(sb) },
    body: envelope(JSON.stringify({ process: { cmd, args }, pty: { size } })),
    signal: controller.signal,
  })
  if (res.status !== 200 || !res.body) throw new Error(`Start answered ${res.status}`)
  const reader = res.body.getReader()
  let buffered = new Uint8Array(0)
  let text = ''
  let onPid: (pid: number) => void = () => {}
  let waiting: (() => void)[] = []
  const wake = () => {
    for (const resolve of waiting) resolve()
    waiting = []
  }
  const pid = new Promise<number>((resolve) => {
    onPid = resolve
  })
  const ended = (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read()
        if (done) return
        const merged = new Uint8Array(buffered.length + value.length)
        merged.set(buffered)
        merged.set(value, buffered.length)
        const complete = completeLength(merged)
        for (const { json } of splitEnvelopes(merged.subarray(0, complete))) {
          if (json?.event?.start) onPid(json.event.start.pid)
          if (json?.event?.data?.pty) text += decode(json.event.data.pty)
        }
        buffered = merged.slice(complete)
        wake()
      }
    } catch {
      // Aborted by close().
    } finally {
      wake()
    }
  })()
  const started = await Promise.race([pid, ended.then(() => undefined)])
  if (started === undefined) throw new Error('the terminal ended before it started')
  return {
    pid: started,
    output: () => text,
    printed: () => new Promise<void>((resolve) => waiting.push(resolve)),
    type: async (input) => {
      const sent = await postUnary(
        baseUrl(sb),
        '/process.Process/SendInput',
        { process: { pid: started }, input: { pty: Buffer.from(input).toString('base64') } },
        auth(sb),
      )
      if (sent.status !== 200) throw new Error(`SendInput answered ${sent.status}: ${sent.text}`)
    },
    ended,
    close: () => controller.abort(),
  }
}

/** Bytes of `body` made of whole envelopes. */
function completeLength(body: Uint8Array): number {
  const view = new DataView(body.buffer, body.byteOffset, body.byteLength)
  let offset = 0
  while (offset + 5 <= body.length && offset + 5 + view.getUint32(offset + 1, false) <= body.length) {
    offset += 5 + view.getUint32(offset + 1, false)
  }
  return offset
}

/** Calls process.Process/List; rejects when no answer comes within `timeoutMs`. */
export async function listProcesses(sb: SandboxAddress, timeoutMs: number): Promise<number[]> {
  const res = await fetch(`${baseUrl(sb)}/process.Process/List`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Connect-Protocol-Version': '1', ...auth(sb) },
    body: '{}',
    signal: AbortSignal.timeout(timeoutMs),
  })
  const json = (await res.json()) as { processes?: { pid: number }[] }
  return (json.processes ?? []).map((p) => p.pid)
}

/** Watches a folder as the IDE's explorer does (filesystem.Filesystem/WatchDir, recursive); close() stops. */
export async function watchFolder(
  sb: SandboxAddress,
  path: string,
): Promise<{ events(): number; close(): void }> {
  const controller = new AbortController()
  const res = await fetch(`${baseUrl(sb)}/filesystem.Filesystem/WatchDir`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/connect+json', 'Connect-Protocol-Version': '1', ...auth(sb) },
    body: envelope(JSON.stringify({ path, recursive: true })),
    signal: controller.signal,
  })
  if (res.status !== 200 || !res.body) throw new Error(`WatchDir answered ${res.status}`)
  let chunks = 0
  const reader = res.body.getReader()
  void (async () => {
    try {
      for (;;) {
        const { done } = await reader.read()
        if (done) return
        chunks += 1
      }
    } catch {
      // Aborted by close().
    }
  })()
  return { events: () => chunks, close: () => controller.abort() }
}

/**
 * Keystrokes as the IDE sends them on the local stack: one process.Process/StreamInput call held
 * open, a message per key, instead of a SendInput call per key.
 */
export function streamInput(sb: SandboxAddress, pid: number): { send(text: string): void; close(): void } {
  let push: ReadableStreamDefaultController<Uint8Array> | undefined
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      push = controller
    },
  })
  const message = (json: unknown) => push?.enqueue(envelope(JSON.stringify(json)))
  message({ start: { process: { pid } } })
  const call = fetch(`${baseUrl(sb)}/process.Process/StreamInput`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/connect+json', 'Connect-Protocol-Version': '1', ...auth(sb) },
    body,
    duplex: 'half',
  } as RequestInit)
  call.catch(() => {})
  return {
    send: (text) => message({ data: { input: { pty: Buffer.from(text).toString('base64') } } }),
    close: () => {
      try {
        push?.close()
      } catch {}
    },
  }
}
