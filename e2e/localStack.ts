// The real local stack for browser tests of every engine (no test runner's import here).
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { request } from 'node:https'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { nodeFlags } from '../server/nodeFlags'

const projectRoot = join(import.meta.dirname, '..')

/** A free loopback port. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

/**
 * The real local stack, as `npm start` runs it (server/cli.ts), on its own port and data folder,
 * so a test can stop it and start it again on the same files, as a user would.
 */
export class LocalStack {
  private child: ChildProcess | undefined
  private madeDataDir: string | undefined
  readonly apiKey = `e2e-${Math.random().toString(36).slice(2)}`

  private chosenPort: number | undefined
  /** The IDE's token, from the address the start banner prints. */
  private token: string | undefined

  /** `port` may be left out: the first start picks a free one, and restarts keep it. */
  constructor(
    port?: number,
    private readonly extraArgs: string[] = [],
  ) {
    this.chosenPort = port
  }

  /** Made on first use: spec files are loaded (and their stacks constructed) where none starts. */
  get dataDir(): string {
    this.madeDataDir ??= mkdtempSync(join(tmpdir(), 'e2e-stack-'))
    return this.madeDataDir
  }

  /** The stack's process while it runs (for measuring its CPU and memory). */
  get pid(): number | undefined {
    return this.child?.pid
  }

  get port(): number {
    if (this.chosenPort === undefined) throw new Error('the stack has not been started yet')
    return this.chosenPort
  }

  /** Started with `--tls`: HTTPS (HTTP/2) with a self-signed certificate. */
  get tls(): boolean {
    return this.extraArgs.includes('--tls')
  }

  get url(): string {
    return `${this.tls ? 'https' : 'http'}://127.0.0.1:${this.port}`
  }

  /** Starts the stack and waits for its banner. */
  async start(): Promise<void> {
    this.chosenPort ??= await freePort()
    const child = spawn(
      process.execPath,
      [
        // As `npm start` runs it.
        ...nodeFlags,
        '--import',
        'tsx',
        'server/cli.ts',
        '--port',
        String(this.port),
        '--data',
        this.dataDir,
        ...this.extraArgs,
      ],
      {
        cwd: projectRoot,
        env: { ...process.env, SANDBOX_API_KEY: this.apiKey },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    )
    this.child = child
    await new Promise<void>((resolve, reject) => {
      let out = ''
      const onData = (d: Buffer) => {
        out += d
        const link = out.match(/Open the IDE:\s+(\S+)\s/)?.[1]
        if (link && out.includes('Sandbox IDE is running')) {
          this.token = new URL(link).hash.match(/^#token=(\S+)$/)?.[1]
          if (this.token) resolve()
          else reject(new Error(`the banner's address carries no token: ${link}`))
        }
      }
      child.stdout?.on('data', onData)
      child.stderr?.on('data', onData)
      child.once('exit', (code) => reject(new Error(`the stack exited with ${code}:\n${out}`)))
    })
  }

  /** The address that opens `path` of the IDE signed in, as the banner's link does. */
  link(path = '/', origin = this.url): string {
    if (!this.token) throw new Error('the stack has not been started yet')
    return `${origin}${path}#token=${this.token}`
  }

  /** The IDE's token itself, for calls that sign in as a tool would. */
  get ideToken(): string {
    if (!this.token) throw new Error('the stack has not been started yet')
    return this.token
  }

  /** The stack's default sandbox (the one `/` opens) and its access token. */
  async defaultSandbox(): Promise<{ id: string; token: string }> {
    const list = (await (await this.api('GET', '/v2/sandboxes')).json()) as {
      sandboxID: string
      metadata: Record<string, string>
    }[]
    const id = list.find((s) => s.metadata.purpose === 'ide-default')?.sandboxID
    if (!id) throw new Error('the stack has no default sandbox')
    const detail = (await (await this.api('GET', `/sandboxes/${id}`)).json()) as { envdAccessToken: string }
    return { id, token: detail.envdAccessToken }
  }

  /** Stops it as Ctrl-C does, and waits until it is gone. */
  async stop(): Promise<void> {
    const child = this.child
    if (!child || child.exitCode !== null) return
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.kill('SIGINT')
    await exited
    this.child = undefined
  }

  /** Calls the stack's E2B platform API with its key. */
  api(method: string, path: string, body?: unknown): Promise<Response> {
    const headers = { 'X-API-Key': this.apiKey, 'Content-Type': 'application/json' }
    const text = body === undefined ? undefined : JSON.stringify(body)
    if (this.tls) return insecureHttps(`${this.url}${path}`, method, headers, text)
    return fetch(`${this.url}${path}`, { method, headers, ...(text === undefined ? {} : { body: text }) })
  }

  /** Calls the IDE's API as the owner's tools do (`npm run class`): the IDE token as a Bearer. */
  ideApi(method: string, path: string, body?: unknown): Promise<Response> {
    return fetch(`${this.url}/ide/api${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${this.ideToken}`,
        'X-Sandbox-IDE': '1',
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
  }

  /**
   * What the teacher's tools make for one student of a class: a sandbox of `template` (half an
   * hour, paused when idle) with the class in its metadata; its id and runtime token.
   */
  async studentSandbox(
    className: string,
    student: string,
    template: string,
  ): Promise<{ sandboxID: string; envdAccessToken: string }> {
    const created = await this.api('POST', '/v2/sandboxes', {
      templateID: template,
      timeout: 1800,
      autoPause: true,
      metadata: { class: className, student },
    })
    if (created.status !== 201)
      throw new Error(`${student}'s sandbox: ${created.status} ${await created.text()}`)
    return (await created.json()) as { sandboxID: string; envdAccessToken: string }
  }

  /** A join link to a student's sandbox, as the teacher's tools issue it: its token. */
  async joinToken(sandboxId: string): Promise<string> {
    const link = await this.ideApi('POST', `/sandboxes/${sandboxId}/join-links`, {})
    if (link.status !== 201) throw new Error(`a join link: ${link.status} ${await link.text()}`)
    return ((await link.json()) as { token: string }).token
  }

  async dispose(): Promise<void> {
    await this.stop()
    if (this.madeDataDir) rmSync(this.madeDataDir, { recursive: true, force: true })
  }
}

/** One HTTPS exchange that accepts the stack's self-signed certificate (Node's fetch cannot be told to). */
function insecureHttps(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Response> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers, rejectUnauthorized: false }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => {
        const status = res.statusCode ?? 502
        const empty = status === 204 || status === 304
        resolve(
          new Response(empty ? null : Buffer.concat(chunks), { status, headers: res.headers as HeadersInit }),
        )
      })
    })
    req.on('error', reject)
    req.end(body)
  })
}
