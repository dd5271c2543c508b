import type {
  Diagnostic,
  FileEvent,
  TextDocumentContentChangeEvent,
  WorkspaceEdit,
} from 'vscode-languageserver-protocol'
import { DisposableStore, toDisposable } from '../../common/lifecycle'
import { Subscribers } from '../../common/Subscribers'
import {
  defaultLanguageTable,
  type LanguageOverrides,
  type LanguageTable,
  parseLanguageOverrides,
  workspaceLanguagesFile,
} from '../../contract/languageTable'
import { EventType } from '../../gen/filesystem_pb'
import type { FileWatch, WatchNotice } from '../fileWatch'
import type { SandboxSession } from '../SandboxSession'
import type { LanguageClient, ServedDocument, ServerState } from './LanguageClient'
import { applyOverrides, serverFor } from './languageTable'
import { languageInstallTag, languageServerTag, parseLanguageTag } from './serverTag'
import { pathOfUri, uriOfPath } from './uris'

/** One open document, as the service keeps it for its server. */
interface OpenDoc extends ServedDocument {
  path: string
  serverKey: string | undefined
}

/** A server's place in the status bar. */
export interface ServerStatus {
  key: string
  name: string
  state: ServerState
}

/** What the Problems panel and the status bar show. */
export interface LanguageSnapshot {
  /** Diagnostics by file path, for every file a server reported on (files not open included). */
  diagnostics: ReadonlyMap<string, readonly Diagnostic[]>
  errors: number
  warnings: number
  servers: readonly ServerStatus[]
  /** What is wrong with the workspace's languages file, if anything. */
  problems: readonly string[]
  /** False where the workspace file or the lab turned code intelligence off: no server runs. */
  enabled: boolean
}

/** What the service needs of the workspace around it. */
export interface LanguageServiceOptions {
  /** This browser tab, across reloads: its servers are its own (two browsers never share one). */
  tabId: string
  /** Applies a server's own edit (a code action's command): open files become unsaved, others are written. */
  applyEdit(edit: WorkspaceEdit): Promise<boolean>
  /** A server's message to the user. */
  message(type: 'error' | 'warning' | 'info', text: string): void
}

/** How often this page says it is alive to its servers' watchdogs, and how stale is dead. */
const heartbeatMs = 60_000
const heartbeatStaleSeconds = 180
/** A server with no open document of its languages stops after this long. */
const idleStopMs = 5 * 60_000

const lspLanguageIds: Record<string, Record<string, string>> = {
  // The editor calls .tsx and .jsx files typescript and javascript; LSP names them apart.
  typescript: { '.tsx': 'typescriptreact' },
  javascript: { '.jsx': 'javascriptreact' },
}

function lspLanguageId(languageId: string, path: string): string {
  const extension = path.slice(path.lastIndexOf('.'))
  return lspLanguageIds[languageId]?.[extension] ?? languageId
}

/**
 * Code intelligence for one sandbox's workspace in this page: the table of language servers (the
 * IDE's defaults, the workspace's `.sandbox-ide/languages.json`, a lab's manifest), one server per
 * language started when the first file of it opens, the documents they are told of, what they
 * report (diagnostics for the Problems panel), and their states (for the status bar). Servers run
 * in the sandbox through its process API, the same on the local stack and on E2B.
 */
export class LanguageService {
  private table: LanguageTable = defaultLanguageTable
  private overrides: LanguageOverrides | undefined
  private labOverrides: LanguageOverrides | undefined
  /** Off where the workspace file or the lab says so. */
  private enabled = true
  private problems: string[] = []
  /** Each server's client, by key; Go to Symbol in Workspace (workspaceSymbols.ts) asks the running ones. */
  readonly clients = new Map<string, LanguageClient>()
  private readonly docs = new Map<string, OpenDoc>()
  private readonly diagnostics = new Map<string, Diagnostic[]>()
  private readonly idleTimers = new Map<string, ReturnType<typeof setTimeout>>()
  private readonly subscribers = new Subscribers()
  private readonly disposables = new DisposableStore()
  private snapshot: LanguageSnapshot = {
    diagnostics: new Map(),
    errors: 0,
    warnings: 0,
    servers: [],
    problems: [],
    enabled: true,
  }
  private home: string | undefined
  private heartbeat: ReturnType<typeof setInterval> | undefined

  constructor(
    private readonly session: SandboxSession,
    watch: FileWatch,
    private readonly options: LanguageServiceOptions,
  ) {
    this.disposables.add(toDisposable(watch.subscribe((notice) => this.watched(notice))))
    this.disposables.add(toDisposable(() => clearInterval(this.heartbeat)))
    this.disposables.add(
      toDisposable(() => {
        for (const timer of this.idleTimers.values()) clearTimeout(timer)
      }),
    )
  }

  subscribe = this.subscribers.add

  getSnapshot = (): LanguageSnapshot => this.snapshot

  /** A document opened in the editor (its editor language id, and how to read its text now). */
  documentOpened(path: string, languageId: string, text: () => string): void {
    const uri = uriOfPath(path)
    const serverKey = serverFor(this.table, languageId)?.[0]
    const doc: OpenDoc = {
      path,
      uri,
      languageId: lspLanguageId(languageId, path),
      version: 1,
      text,
      serverKey,
    }
    this.docs.set(path, doc)
    if (!serverKey) return
    clearTimeout(this.idleTimers.get(serverKey))
    void this.clientFor(serverKey).then((client) => {
      // Closed meanwhile, or opened again as another document.
      if (this.docs.get(path) !== doc) return
      // A start meanwhile told the server of it already: didOpen says it once.
      if (client?.state.kind === 'running') client.didOpen(doc)
      else client?.start()
    })
  }

  /**
   * A file of `languageId` is opening (its text, or the editor itself, still loading): its server
   * starts now, alongside, instead of once the document is open. If no document comes (a binary
   * file after all), the server stops after the usual idle time.
   */
  warmUp(languageId: string): void {
    const serverKey = serverFor(this.table, languageId)?.[0]
    if (this.disposed || !serverKey || this.clients.has(serverKey)) return
    void this.clientFor(serverKey).then((client) => {
      if (client && client.state.kind !== 'running') client.start()
      if (![...this.docs.values()].some((d) => d.serverKey === serverKey)) this.idle(serverKey)
    })
  }

  /** Its text changed in the editor: LSP's changes (ranges in the text before them, UTF-16). */
  documentChanged(path: string, changes: TextDocumentContentChangeEvent[]): void {
    const doc = this.docs.get(path)
    if (!doc) return
    doc.version++
    this.client(doc)?.didChange(doc, changes)
  }

  documentSaved(path: string): void {
    const doc = this.docs.get(path)
    if (doc) this.client(doc)?.didSave(doc.uri)
  }

  documentClosed(path: string): void {
    const doc = this.docs.get(path)
    if (!doc) return
    this.docs.delete(path)
    this.client(doc)?.didClose(doc.uri)
    if (doc.serverKey && ![...this.docs.values()].some((d) => d.serverKey === doc.serverKey))
      this.idle(doc.serverKey)
  }

  /** An open file moved: the server closes the old name and opens the new one. */
  documentMoved(from: string, to: string): void {
    const doc = this.docs.get(from)
    if (!doc) return
    this.documentClosed(from)
    this.documentOpened(to, doc.languageId, doc.text)
  }

  /** A request about a document, to the server of its language; undefined when none answers. */
  request<R>(path: string, method: string, params: (uri: string) => unknown): Promise<R | undefined> {
    const doc = this.docs.get(path)
    const client = doc && this.client(doc)
    return client ? client.request<R>(method, params(doc.uri)) : Promise.resolve(undefined)
  }

  /** What the server of a document's language offers, once it runs. */
  capabilities(path: string) {
    const doc = this.docs.get(path)
    return doc ? this.client(doc)?.capabilities : undefined
  }

  /** Runs the install command of a missing server in the sandbox, then starts it again. */
  async install(key: string): Promise<void> {
    const client = this.clients.get(key)
    const command = client?.config.install
    if (!client || !command) return
    const result = await this.session.processes.run('/bin/bash', {
      args: ['-l', '-c', command],
      timeoutMs: 600_000,
      tag: languageInstallTag(key, client.config.name),
    })
    if (result.exitCode !== 0)
      throw new Error(
        `${command} failed (exit ${result.exitCode}): ${result.stderr.trim().split('\n').at(-1) ?? ''}`,
      )
    client.retry()
  }

  /** Tries a failed server again now. */
  retry(key: string): void {
    this.clients.get(key)?.retry()
  }

  /**
   * Stops the servers (or the one of `key`), running or not, and starts fresh ones that are told
   * of the open documents again, their backoff forgotten: "Language: Restart servers".
   */
  async restart(key?: string): Promise<void> {
    const clients = key === undefined ? [...this.clients.values()] : [this.clients.get(key)]
    await Promise.all(clients.map((client) => client?.restart()))
  }

  /** Reads the workspace's languages file (at start, and when it changes). */
  async loadWorkspaceFile(): Promise<void> {
    const home = await this.homeFolder()
    if (!home) return
    let text: string | undefined
    try {
      text = new TextDecoder().decode(await this.session.files.read(`${home}/${workspaceLanguagesFile}`))
    } catch {
      text = undefined
    }
    let overrides: LanguageOverrides | undefined
    let problems: string[] = []
    if (text !== undefined) {
      try {
        const parsed = parseLanguageOverrides(JSON.parse(text))
        if (parsed.ok) overrides = parsed.overrides
        else problems = parsed.problems
      } catch (err) {
        problems = [
          `${workspaceLanguagesFile}: not valid JSON (${err instanceof Error ? err.message : String(err)})`,
        ]
      }
    }
    this.overrides = overrides
    this.problems = problems
    this.reconfigure()
  }

  /** A lab's overrides (from its manifest), or undefined when the sandbox holds no lab. */
  setLabOverrides(overrides: LanguageOverrides | undefined): void {
    if (JSON.stringify(overrides) === JSON.stringify(this.labOverrides)) return
    this.labOverrides = overrides
    this.reconfigure()
  }

  /** The table changed (the workspace file, a lab): servers whose configuration changed start again. */
  reconfigure(): void {
    // The lab's table is laid last, over the student's own file: the teacher decides what a lab
    // (an exam) runs, and a student's file cannot bring back what the lab changed or turned off.
    // Either may turn everything off; neither can turn on what the other turned off.
    const layers = [this.overrides, this.labOverrides].filter((o) => o !== undefined)
    const next = applyOverrides(defaultLanguageTable, ...layers)
    this.enabled = layers.every((o) => o.enabled)
    // Turned off, what the servers said goes with them.
    if (!this.enabled) this.diagnostics.clear()
    const before = this.table
    this.table = next
    for (const [key, client] of this.clients)
      if (JSON.stringify(before[key]) !== JSON.stringify(next[key])) {
        client.dispose()
        this.clients.delete(key)
      }
    for (const doc of this.docs.values()) {
      doc.serverKey = serverFor(next, doc.languageId.replace(/react$/, ''))?.[0]
      if (doc.serverKey) void this.clientFor(doc.serverKey).then((client) => client?.start())
    }
    this.publish()
  }

  private disposed = false

  dispose(): void {
    this.disposed = true
    for (const client of this.clients.values()) void client.stop()
    this.clients.clear()
    this.disposables.dispose()
  }

  private client(doc: OpenDoc): LanguageClient | undefined {
    return doc.serverKey ? this.clients.get(doc.serverKey) : undefined
  }

  /**
   * The client of a server, made on first use: its code (and vscode-jsonrpc's) is loaded then,
   * so a page that opens no file of a served language never downloads it.
   */
  private async clientFor(key: string): Promise<LanguageClient | undefined> {
    const { LanguageClient } = await import('./LanguageClient')
    const existing = this.clients.get(key)
    if (existing) return existing
    const config = this.table[key]
    if (!config || this.disposed) return undefined
    void this.firstStart()
    const client = new LanguageClient(key, config, {
      session: this.session,
      rootUri: uriOfPath(this.home ?? '/home/user'),
      tag: languageServerTag(key, this.options.tabId, config.name),
      watchdog: this.watchdog(),
      documents: () => [...this.docs.values()].filter((d) => d.serverKey === key),
      diagnostics: (uri, diagnostics) => this.report(uri, diagnostics),
      state: () => this.publish(),
      applyEdit: (edit) => this.options.applyEdit(edit),
      message: (type, text) => this.options.message(type, `${config.name}: ${text}`),
    })
    this.clients.set(key, client)
    return client
  }

  /**
   * Once per page: ends what an earlier page of this tab left running (a reload), and starts the
   * heartbeat the servers' watchdogs read, so a server whose page is gone ends by itself.
   */
  private firstStartDone: Promise<void> | undefined
  private firstStart(): Promise<void> {
    this.firstStartDone ??= (async () => {
      await this.homeFolder()
      const leftOver = await this.session.processes.list().catch(() => [])
      const ours = (tag: string | undefined) => {
        const process = parseLanguageTag(tag)
        return process?.kind === 'server' && process.tabId === this.options.tabId
      }
      await Promise.all(
        leftOver
          .filter((p) => ours(p.tag))
          .map((p) => this.session.processes.signal(p.pid, 'SIGKILL').catch(() => false)),
      )
      const beat = () =>
        this.session.getSnapshot().state.kind === 'running' &&
        void this.session.files.write(this.aliveFile(), new Uint8Array(0)).catch(() => {})
      beat()
      this.heartbeat = setInterval(beat, heartbeatMs)
    })()
    return this.firstStartDone
  }

  private aliveFile(): string {
    return `/tmp/.sandbox-ide/alive-${this.options.tabId}`
  }

  /**
   * A shell line put before a server's command: a watchdog in the background that ends the
   * server (the shell's own pid, once it has exec'd the server) when this page's heartbeat
   * file is older than `heartbeatStaleSeconds`, and ends itself when the server ends. Plain
   * bash, date and stat: a stock E2B template has them.
   */
  private watchdog(): string {
    const alive = this.aliveFile()
    return (
      `(while sleep 30; do kill -0 $$ 2>/dev/null || exit; ` +
      `[ $(( $(date +%s) - $(stat -c %Y '${alive}' 2>/dev/null || echo 0) )) -lt ${heartbeatStaleSeconds} ] || ` +
      `{ kill -9 $$; exit; }; done) >/dev/null 2>&1 </dev/null & `
    )
  }

  private async homeFolder(): Promise<string | undefined> {
    this.home ??= await this.session.files.home().catch(() => undefined)
    return this.home
  }

  private idle(key: string): void {
    clearTimeout(this.idleTimers.get(key))
    this.idleTimers.set(
      key,
      setTimeout(() => {
        this.idleTimers.delete(key)
        if ([...this.docs.values()].some((d) => d.serverKey === key)) return
        void this.clients.get(key)?.stop()
        this.clients.delete(key)
        this.publish()
      }, idleStopMs),
    )
  }

  private report(uri: string, diagnostics: Diagnostic[]): void {
    const path = pathOfUri(uri)
    if (path === undefined) return
    if (diagnostics.length) this.diagnostics.set(path, diagnostics)
    else this.diagnostics.delete(path)
    this.publish()
  }

  /** Changes outside the editor reach the servers as watched-file events. */
  private watched(notice: WatchNotice): void {
    if (notice.kind !== 'changes') return
    if (notice.changes.some((c) => c.path.endsWith(`/${workspaceLanguagesFile}`)))
      void this.loadWorkspaceFile()
    if (this.clients.size === 0) return
    const changes: FileEvent[] = []
    for (const change of notice.changes) {
      if (this.docs.has(change.path)) continue
      const type =
        change.type === EventType.CREATE
          ? 1
          : change.type === EventType.REMOVE || change.type === EventType.RENAME
            ? 3
            : change.type === EventType.WRITE
              ? 2
              : undefined
      if (type !== undefined) changes.push({ uri: uriOfPath(change.path), type })
    }
    for (const client of this.clients.values()) client.didChangeWatchedFiles(changes)
  }

  private publish(): void {
    let errors = 0
    let warnings = 0
    for (const list of this.diagnostics.values())
      for (const d of list) {
        if (d.severity === 1 || d.severity === undefined) errors++
        else if (d.severity === 2) warnings++
      }
    this.snapshot = {
      diagnostics: new Map(this.diagnostics),
      errors,
      warnings,
      servers: [...this.clients.values()].map((c) => ({ key: c.key, name: c.config.name, state: c.state })),
      problems: this.problems,
      enabled: this.enabled,
    }
    this.subscribers.notify()
  }
}
