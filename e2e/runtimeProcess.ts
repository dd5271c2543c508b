import type { LocalStack } from './localStack'

/** A process the test started through the runtime API, as another client of the sandbox would. */
export interface RuntimeProcess {
  pid: number
  /** The end event's status ("signal: killed", "exit status 0"), once the process ends. */
  ended: Promise<string>
}

/** The Start request's JSON, as envd takes it. */
export interface StartRequest {
  process: { cmd: string; args?: string[]; envs?: Record<string, string> }
  pty?: { size: { cols: number; rows: number } }
  tag?: string
}

function envelope(json: string): Uint8Array<ArrayBuffer> {
  const data = new TextEncoder().encode(json)
  const out = new Uint8Array(5 + data.length)
  new DataView(out.buffer).setUint32(1, data.length)
  out.set(data, 5)
  return out
}

/** The JSON messages of a Connect stream, one per envelope, as they arrive. */
async function* messages(body: ReadableStream<Uint8Array>): AsyncGenerator<{ end: boolean; json: unknown }> {
  let buffer = new Uint8Array(0)
  for await (const chunk of body) {
    const joined = new Uint8Array(buffer.length + chunk.length)
    joined.set(buffer)
    joined.set(chunk, buffer.length)
    buffer = joined
    while (buffer.length >= 5) {
      const length = new DataView(buffer.buffer, buffer.byteOffset).getUint32(1)
      if (buffer.length < 5 + length) break
      const flags = buffer[0] ?? 0
      const text = new TextDecoder().decode(buffer.subarray(5, 5 + length))
      buffer = buffer.subarray(5 + length)
      yield { end: (flags & 2) !== 0, json: JSON.parse(text) }
    }
  }
}

interface ProcessEventJson {
  /** StartResponse.event, with the ProcessEvent oneof flattened as proto JSON does. */
  event?: { start?: { pid: number }; end?: { status?: string } }
  error?: { message?: string }
}

/**
 * Starts a process in a sandbox with the runtime's Start, by the platform's own host and the
 * E2b-Sandbox-Id header (Node, unlike browsers, does not resolve `*.localhost` names), and keeps
 * reading its stream to learn how it ended.
 */
export async function startRuntimeProcess(
  stack: LocalStack,
  sandboxId: string,
  request: StartRequest,
  { detach = false }: { detach?: boolean } = {},
): Promise<RuntimeProcess> {
  const detail = (await (await stack.api('GET', `/sandboxes/${sandboxId}`)).json()) as {
    envdAccessToken: string
  }
  const leave = new AbortController()
  const res = await fetch(`${stack.url}/process.Process/Start`, {
    method: 'POST',
    signal: leave.signal,
    headers: {
      'Content-Type': 'application/connect+json',
      'X-Access-Token': detail.envdAccessToken,
      'E2b-Sandbox-Id': sandboxId,
      'E2b-Sandbox-Port': '49983',
    },
    body: envelope(JSON.stringify(request)),
  })
  if (!res.ok || !res.body) throw new Error(`Start answered ${res.status}: ${await res.text()}`)
  const stream = messages(res.body)
  const first = (await stream.next()).value?.json as ProcessEventJson | undefined
  const pid = first?.event?.start?.pid
  if (pid === undefined) throw new Error(`Start did not start: ${JSON.stringify(first)}`)
  if (detach) {
    // The connection goes away; the process runs on, read by no one (as a closed browser leaves it).
    leave.abort()
    await stream.return(undefined).catch(() => {})
    return { pid, ended: new Promise<string>(() => {}) }
  }
  const ended = (async () => {
    for await (const { end, json } of stream) {
      const message = json as ProcessEventJson
      if (message.event?.end) return message.event.end.status ?? ''
      if (end) throw new Error(`the stream ended without an end event: ${message.error?.message}`)
    }
    throw new Error('the stream closed without an end event')
  })()
  // Read in the background; a test that does not wait for the end must not see a stray rejection.
  ended.catch(() => {})
  return { pid, ended }
}

/** One unary call to a sandbox's runtime in Connect's JSON, as another client would make it. */
async function unaryRuntimeCall(stack: LocalStack, sandboxId: string, method: string, body: unknown) {
  const detail = (await (await stack.api('GET', `/sandboxes/${sandboxId}`)).json()) as {
    envdAccessToken: string
  }
  const res = await fetch(`${stack.url}/${method}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      'X-Access-Token': detail.envdAccessToken,
      'E2b-Sandbox-Id': sandboxId,
    },
    body: JSON.stringify(body),
  })
  if (!res.ok) throw new Error(`${method} answered ${res.status}: ${await res.text()}`)
  return res.json() as Promise<unknown>
}

/** Sends a signal to a process of a sandbox with the runtime's SendSignal, as another client would. */
export async function signalRuntimeProcess(
  stack: LocalStack,
  sandboxId: string,
  pid: number,
  signal: 'SIGNAL_SIGTERM' | 'SIGNAL_SIGKILL',
): Promise<void> {
  await unaryRuntimeCall(stack, sandboxId, 'process.Process/SendSignal', { process: { pid }, signal })
}

/** The processes the runtime lists (List), as envd's JSON has them. */
export async function listRuntimeProcesses(
  stack: LocalStack,
  sandboxId: string,
): Promise<{ pid: number; tag?: string; config: { cmd: string; args?: string[] } }[]> {
  const answer = (await unaryRuntimeCall(stack, sandboxId, 'process.Process/List', {})) as {
    processes?: { pid: number; tag?: string; config: { cmd: string; args?: string[] } }[]
  }
  return answer.processes ?? []
}

/** How a command run to its end went: its stdout (UTF-8) and the runtime's words for its end. */
export interface SandboxRun {
  stdout: string
  status: string
}

/**
 * Runs a bash script in a sandbox to its end with the runtime's Start (no PTY), as another client
 * would, and gathers its stdout; throws with its output when it does not exit with 0.
 */
export async function runInSandbox(
  stack: LocalStack,
  sandboxId: string,
  script: string,
  cwd = '/home/user',
): Promise<SandboxRun> {
  const detail = (await (await stack.api('GET', `/sandboxes/${sandboxId}`)).json()) as {
    envdAccessToken: string
  }
  const res = await fetch(`${stack.url}/process.Process/Start`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/connect+json',
      'X-Access-Token': detail.envdAccessToken,
      'E2b-Sandbox-Id': sandboxId,
      'E2b-Sandbox-Port': '49983',
    },
    body: envelope(
      JSON.stringify({
        process: { cmd: '/bin/bash', args: ['-c', script], cwd },
        stdin: false,
        tag: 'e2e-run',
      }),
    ),
  })
  if (!res.ok || !res.body) throw new Error(`Start answered ${res.status}: ${await res.text()}`)
  let stdout = ''
  let output = ''
  for await (const { end, json } of messages(res.body)) {
    const message = json as {
      event?: { data?: { stdout?: string; stderr?: string }; end?: { status?: string } }
      error?: { message?: string }
    }
    const data = message.event?.data
    const text = (bytes: string | undefined) => (bytes ? Buffer.from(bytes, 'base64').toString('utf8') : '')
    stdout += text(data?.stdout)
    output += text(data?.stdout) + text(data?.stderr)
    const status = message.event?.end?.status
    if (status !== undefined) {
      if (status !== 'exit status 0') throw new Error(`${script}\n→ ${status}: ${output}`)
      return { stdout, status }
    }
    if (end) throw new Error(`the stream ended without an end event: ${message.error?.message}`)
  }
  throw new Error('the stream closed without an end event')
}
