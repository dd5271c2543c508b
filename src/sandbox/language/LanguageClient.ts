import type { MessageConnection } from 'vscode-jsonrpc'
import type {
  ConfigurationParams,
  Diagnostic,
  DocumentDiagnosticReport,
  FileEvent,
  InitializeResult,
  PublishDiagnosticsParams,
  ServerCapabilities,
  TextDocumentContentChangeEvent,
  WorkspaceEdit,
} from 'vscode-languageserver-protocol'
import type { LanguageServerConfig } from '../../contract/languageTable'
import type { SandboxSession } from '../SandboxSession'
import { StdioProcess } from '../stdioProcess'
import { clientCapabilities } from './clientCapabilities'
import { FrameGuard } from './frameGuard'
import { launchCommand } from './languageTable'

/** Where one language server stands, as the status bar says it. */
export type ServerState =
  | { kind: 'starting' }
  | { kind: 'running' }
  | { kind: 'restarting'; attempt: number; inMs: number; reason: string }
  | { kind: 'missing'; reason: string; install?: string }
  | { kind: 'failed'; reason: string }
  | { kind: 'stopped' }

/** A text document as a server is told of it. */
export interface ServedDocument {
  uri: string
  languageId: string
  version: number
  text(): string
}

/** What a client needs of the workspace around it. */
export interface ClientHost {
  session: SandboxSession
  /** The workspace's folder (the home folder), as a file URI. */
  rootUri: string
  /** Tag of its process, so a later page of this tab finds and ends it. */
  tag: string
  /** A shell line that keeps the server alive only while this page lives (see LanguageService). */
  watchdog: string
  /** The documents of its languages now open, to tell a (re)started server of. */
  documents(): Iterable<ServedDocument>
  diagnostics(uri: string, diagnostics: Diagnostic[]): void
  state(state: ServerState): void
  /** A server's own edit (a code action's command): applied, or refused. */
  applyEdit(edit: WorkspaceEdit): Promise<boolean>
  /** A message the server wants the user to see. */
  message(type: 'error' | 'warning' | 'info', text: string): void
}

/** A request's answer waits this long at most; then it is cancelled and the editor goes on without it. */
export const requestTimeoutMs = 10_000
/** A server that takes longer than this to answer `initialize` is taken as broken. */
const initializeTimeoutMs = 60_000
/** Biggest message a server may send: past it the server is stopped, not buffered. */
export const maxMessageBytes = 64 * 1024 * 1024
/** Restarts after a crash: 1 s, 2 s, 4 s… at most this long apart. */
const maxRestartDelayMs = 30_000
/** This many crashes, each within `crashWindowMs` of the last, and it stays stopped. */
const maxCrashes = 5
const crashWindowMs = 3 * 60_000
/** A shell that cannot find a command says so with this exit code. */
const commandNotFound = 127
/** How long a server may take to answer `shutdown`, and then to exit, before it is killed. */
const shutdownTimeoutMs = 2000
const exitGraceMs = 1000

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))
/** A message to a server that may be gone: a closed connection throws at once, or rejects. */
async function quietly(send: () => Promise<unknown>): Promise<void> {
  try {
    await send()
  } catch {}
}

/**
 * One language server in the sandbox, for one page: started through the runtime's Start (no
 * PTY), spoken to in JSON-RPC over its stdin and stdout, told of the open documents of its
 * languages, and started again (with backoff) when it crashes, is killed, or its stream is lost:
 * LSP forbids a second `initialize`, so a server is never reattached, always restarted, and the
 * documents are opened on it again. A command the sandbox does not have is "missing", said once,
 * with how to install it, not retried.
 */
export class LanguageClient {
  private process: StdioProcess | undefined
  private connection: MessageConnection | undefined
  /** The documents the current server was told are open. */
  private opened = new Set<string>()
  /** The JSON-RPC module, once the first launch loaded it. */
  private rpc: typeof import('./lspConnection') | undefined
  private capabilitiesOf: ServerCapabilities | undefined
  private current: ServerState = { kind: 'stopped' }
  private stderrTail: string[] = []
  private crashes: number[] = []
  private restartTimer: ReturnType<typeof setTimeout> | undefined
  private readonly pullTimers = new Map<string, ReturnType<typeof setTimeout>>()
  /** The pull in flight for each document, cancelled by the next change. */
  private readonly pulls = new Map<string, AbortController>()
  private wanted = false
  private generation = 0
  /** Settles when the current server's process has ended. */
  private exited: Promise<void> = Promise.resolve()

  constructor(
    readonly key: string,
    readonly config: LanguageServerConfig,
    private readonly host: ClientHost,
  ) {}

  get state(): ServerState {
    return this.current
  }

  /** What the running server offers (undefined until it answered `initialize`). */
  get capabilities(): ServerCapabilities | undefined {
    return this.current.kind === 'running' ? this.capabilitiesOf : undefined
  }

  /** Starts it (once; later calls while it runs or waits to restart do nothing). */
  start(): void {
    if (this.wanted && this.current.kind !== 'stopped' && this.current.kind !== 'failed') return
    this.wanted = true
    this.setState({ kind: 'restarting', attempt: 0, inMs: 0, reason: 'waiting for the sandbox' })
    this.launchWhenRunning()
  }

  /** Tries again at once after a failure or while it waits to restart (the user asked). */
  retry(): void {
    this.crashes = []
    clearTimeout(this.restartTimer)
    if (this.current.kind !== 'running' && this.current.kind !== 'starting') {
      this.wanted = true
      void this.launch()
    }
  }

  /**
   * Tells the running server of a document, once: a document may be opened by the start (which
   * tells of every open one) and by its own opening, when the two cross. A second didOpen is an
   * error in LSP, and Pyright starts its analysis over on it.
   */
  didOpen(doc: ServedDocument): void {
    if (this.current.kind !== 'running' || this.opened.has(doc.uri)) return
    this.opened.add(doc.uri)
    this.notify('textDocument/didOpen', {
      textDocument: { uri: doc.uri, languageId: doc.languageId, version: doc.version, text: doc.text() },
    })
    this.schedulePull(doc.uri)
  }

  didChange(doc: ServedDocument, changes: TextDocumentContentChangeEvent[]): void {
    // A server that takes whole documents only (sync kind 1) gets the whole text.
    const sync = this.capabilitiesOf?.textDocumentSync
    const kind = typeof sync === 'number' ? sync : sync?.change
    const contentChanges = kind === 2 ? changes : [{ text: doc.text() }]
    this.notify('textDocument/didChange', {
      textDocument: { uri: doc.uri, version: doc.version },
      contentChanges,
    })
    this.schedulePull(doc.uri)
  }

  didSave(uri: string): void {
    this.notify('textDocument/didSave', { textDocument: { uri } })
  }

  didClose(uri: string): void {
    this.cancelPull(uri)
    if (!this.opened.delete(uri)) return
    this.notify('textDocument/didClose', { textDocument: { uri } })
  }

  /** Files changed outside the editor (the terminal, git, an upload). */
  didChangeWatchedFiles(changes: FileEvent[]): void {
    if (changes.length) this.notify('workspace/didChangeWatchedFiles', { changes })
  }

  /**
   * A request, answered or not: undefined when the server is not running, does not answer within
   * `timeoutMs` (it is cancelled), or fails; the editor shows nothing rather than waiting. Aborting
   * `signal` cancels it too (a search the user typed past).
   */
  async request<R>(
    method: string,
    params: unknown,
    { timeoutMs = requestTimeoutMs, signal }: { timeoutMs?: number; signal?: AbortSignal } = {},
  ): Promise<R | undefined> {
    const connection = this.connection
    const rpc = this.rpc
    if (!connection || !rpc || this.current.kind !== 'running' || signal?.aborted) return undefined
    // The connection's module is loaded (it made the connection): no await before the request
    // leaves, which a dynamic import costs (a task, ~4 ms, on every completion).
    const cancel = new rpc.CancellationTokenSource()
    const timer = setTimeout(() => cancel.cancel(), timeoutMs)
    const abort = () => cancel.cancel()
    signal?.addEventListener('abort', abort, { once: true })
    try {
      return (await connection.sendRequest(method, params, cancel.token)) as R
    } catch {
      return undefined
    } finally {
      clearTimeout(timer)
      signal?.removeEventListener('abort', abort)
      cancel.dispose()
    }
  }

  /** Asks it to shut down, then ends its process. */
  async stop(): Promise<void> {
    this.wanted = false
    clearTimeout(this.restartTimer)
    await this.shutdown(this.current.kind === 'running' ? this.connection : undefined)
    this.setState({ kind: 'stopped' })
  }

  /**
   * Stops the server as asked (shutdown and exit, killed if it does not go) and starts a fresh
   * one, which is told of the open documents again; earlier crashes no longer count, so it starts
   * at once. A missing or failed one is simply started again.
   */
  async restart(): Promise<void> {
    const running = this.current.kind === 'running' ? this.connection : undefined
    this.crashes = []
    clearTimeout(this.restartTimer)
    this.wanted = true
    // A new generation: the old server's end, asked for, is no crash to restart from.
    const generation = ++this.generation
    this.setState({ kind: 'restarting', attempt: 0, inMs: 0, reason: 'restarting, as asked' })
    await this.shutdown(running)
    if (generation === this.generation && this.wanted) this.launchWhenRunning()
  }

  dispose(): void {
    this.wanted = false
    clearTimeout(this.restartTimer)
    void this.teardown()
  }

  /** LSP's polite end (`shutdown`, then `exit`) for a running server, then its process is ended. */
  private async shutdown(connection: MessageConnection | undefined): Promise<void> {
    if (connection) {
      const exited = this.exited
      await Promise.race([quietly(() => connection.sendRequest('shutdown')), delay(shutdownTimeoutMs)])
      await quietly(() => connection.sendNotification('exit'))
      // One that does not exit by itself is killed below.
      await Promise.race([exited, delay(exitGraceMs)])
    }
    await this.teardown()
  }

  private notify(method: string, params: unknown): void {
    if (this.current.kind !== 'running') return
    this.connection?.sendNotification(method, params).catch(() => {})
  }

  private setState(state: ServerState): void {
    this.current = state
    this.host.state(state)
  }

  private async launch(): Promise<void> {
    const generation = ++this.generation
    await this.teardown()
    this.setState({ kind: 'starting' })
    this.stderrTail = []
    this.rpc ??= await import('./lspConnection')
    const { connectOverStdio } = this.rpc
    if (generation !== this.generation || !this.wanted) return
    const guard = new FrameGuard(maxMessageBytes)
    let failure: string | undefined
    let exited = () => {}
    this.exited = new Promise<void>((resolve) => {
      exited = resolve
    })
    const server = new StdioProcess(
      this.host.session,
      {
        command: `${this.host.watchdog}${launchCommand(this.config)}`,
        tag: this.host.tag,
        envs: { LANG: 'C.UTF-8' },
      },
      {
        stdout: (bytes) => {
          if (failure) return
          failure = guard.check(bytes)
          if (!failure) return output.data(bytes)
          // Killed here, its end is this page's to report: the stream's is not awaited.
          void server.kill()
          output.closed()
          if (generation === this.generation)
            this.ended({ status: 'stopped', exitCode: undefined, streamLost: false }, failure)
        },
        stderr: (bytes) => {
          const lines = new TextDecoder().decode(bytes).split('\n').filter(Boolean)
          this.stderrTail = [...this.stderrTail, ...lines].slice(-20)
        },
        ended: (end) => {
          exited()
          output.closed()
          if (generation === this.generation) this.ended(end, failure)
        },
      },
    )
    const { connection, output } = connectOverStdio(server)
    this.process = server
    this.connection = connection
    this.opened = new Set()
    this.listen(connection)
    connection.listen()
    try {
      await server.start()
      const result = (await Promise.race([
        connection.sendRequest('initialize', {
          processId: null,
          clientInfo: { name: 'Sandbox IDE' },
          rootUri: this.host.rootUri,
          workspaceFolders: [{ uri: this.host.rootUri, name: 'home' }],
          capabilities: clientCapabilities,
          initializationOptions: this.config.initializationOptions ?? null,
        }),
        new Promise((_, reject) =>
          setTimeout(
            () => reject(new Error(`no answer to initialize in ${initializeTimeoutMs / 1000} s`)),
            initializeTimeoutMs,
          ),
        ),
      ])) as InitializeResult
      if (generation !== this.generation) return
      this.capabilitiesOf = result.capabilities
      await connection.sendNotification('initialized', {})
      this.setState({ kind: 'running' })
      for (const doc of this.host.documents()) this.didOpen(doc)
    } catch (err) {
      if (generation !== this.generation) return
      // The process's own end (missing, crashed) says more than the broken call, when it comes.
      if (this.current.kind === 'starting')
        this.crashed(`it did not start: ${err instanceof Error ? err.message : String(err)}`)
    }
  }

  private listen(connection: MessageConnection): void {
    connection.onNotification('textDocument/publishDiagnostics', (params: PublishDiagnosticsParams) =>
      this.host.diagnostics(params.uri, params.diagnostics),
    )
    connection.onNotification('window/showMessage', (params: { type: number; message: string }) =>
      this.host.message(params.type === 1 ? 'error' : params.type === 2 ? 'warning' : 'info', params.message),
    )
    connection.onNotification('window/logMessage', () => {})
    connection.onNotification('$/progress', () => {})
    connection.onRequest('workspace/configuration', (params: ConfigurationParams) =>
      params.items.map((item) => (item.section ? (this.config.settings?.[item.section] ?? null) : null)),
    )
    connection.onRequest('workspace/workspaceFolders', () => [{ uri: this.host.rootUri, name: 'home' }])
    connection.onRequest('client/registerCapability', () => null)
    connection.onRequest('client/unregisterCapability', () => null)
    connection.onRequest('window/workDoneProgress/create', () => null)
    connection.onRequest('window/showMessageRequest', () => null)
    connection.onRequest('workspace/diagnostic/refresh', () => {
      for (const doc of this.host.documents()) this.schedulePull(doc.uri)
      return null
    })
    connection.onRequest('workspace/applyEdit', async (params: { edit: WorkspaceEdit }) => ({
      applied: await this.host.applyEdit(params.edit),
    }))
    // Anything else it asks is answered "not supported", never left waiting.
  }

  /**
   * Diagnostics a server gives when asked (LSP 3.17's pull): asked after every change (the
   * changes of one task together), the pull before cancelled, as VS Code's client does. The
   * server's own check is what the user waits for; a pause before asking only added to it.
   */
  private schedulePull(uri: string): void {
    if (!this.capabilitiesOf?.diagnosticProvider) return
    this.cancelPull(uri)
    this.pullTimers.set(
      uri,
      setTimeout(async () => {
        this.pullTimers.delete(uri)
        const pull = new AbortController()
        this.pulls.set(uri, pull)
        const report = await this.request<DocumentDiagnosticReport>(
          'textDocument/diagnostic',
          { textDocument: { uri } },
          { signal: pull.signal },
        )
        if (pull.signal.aborted) return
        this.pulls.delete(uri)
        if (report?.kind === 'full') this.host.diagnostics(uri, report.items)
      }),
    )
  }

  /** Drops a document's pull: the one about to be asked, and the one in flight. */
  private cancelPull(uri: string): void {
    clearTimeout(this.pullTimers.get(uri))
    this.pullTimers.delete(uri)
    this.pulls.get(uri)?.abort()
    this.pulls.delete(uri)
  }

  private ended(
    end: { status: string; exitCode: number | undefined; streamLost: boolean },
    failure?: string,
  ): void {
    this.connection?.dispose()
    this.connection = undefined
    this.capabilitiesOf = undefined
    const said = this.stderrTail.at(-1)
    if (!this.wanted) {
      this.setState({ kind: 'stopped' })
    } else if (
      end.exitCode === commandNotFound ||
      /command not found|No such file or directory/.test(said ?? '')
    ) {
      this.setState({
        kind: 'missing',
        reason: `${this.config.name} is not installed in this sandbox (${said ?? end.status})`,
        ...(this.config.install ? { install: this.config.install } : {}),
      })
    } else if (failure) {
      this.crashed(`it stopped speaking LSP: ${failure}`)
    } else if (end.streamLost) {
      // A lost stream (a pause, a dropped link) is no crash of the server's: start again, no penalty.
      this.scheduleRestart(0, 'its connection was lost')
    } else {
      this.crashed(said ? `${end.status}: ${said}` : end.status)
    }
  }

  private crashed(reason: string): void {
    const now = Date.now()
    this.crashes = [...this.crashes.filter((at) => now - at < crashWindowMs), now]
    if (this.crashes.length >= maxCrashes) {
      this.setState({ kind: 'failed', reason: `${this.config.name} stopped ${maxCrashes} times: ${reason}` })
      return
    }
    this.scheduleRestart(this.crashes.length, reason)
  }

  private scheduleRestart(attempt: number, reason: string): void {
    void this.teardown()
    const inMs = attempt === 0 ? 500 : Math.min(maxRestartDelayMs, 1000 * 2 ** (attempt - 1))
    this.setState({ kind: 'restarting', attempt, inMs, reason })
    clearTimeout(this.restartTimer)
    this.restartTimer = setTimeout(() => void this.launchWhenRunning(), inMs)
  }

  /**
   * Starts again once the sandbox runs: while it is paused or reconnecting the session's own
   * state says so, and a start would only fail and count as a crash.
   */
  private launchWhenRunning(): void {
    if (!this.wanted) return
    const session = this.host.session
    if (session.getSnapshot().state.kind === 'running') {
      void this.launch()
      return
    }
    const stop = session.subscribe(() => {
      if (session.getSnapshot().state.kind !== 'running') return
      stop()
      if (this.wanted && this.current.kind === 'restarting') void this.launch()
    })
  }

  private async teardown(): Promise<void> {
    for (const timer of this.pullTimers.values()) clearTimeout(timer)
    this.pullTimers.clear()
    const process = this.process
    this.process = undefined
    this.connection?.dispose()
    this.connection = undefined
    this.capabilitiesOf = undefined
    await process?.kill()
  }
}
