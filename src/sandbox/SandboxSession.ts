import { createClient, type Transport } from '@connectrpc/connect'
import type { RuntimeEndpoint } from '../api/files'
import { ApiError, ideApi } from '../api/ideApi'
import { runtimeTransport, shardedUrl } from '../api/runtimeTransport'
import { createTunnelFetch } from '../api/tunnelFetch'
import { backoffDelay } from '../common/backoff'
import { DisposableStore, toDisposable } from '../common/lifecycle'
import { Subscribers } from '../common/Subscribers'
import type { SandboxUsage, SessionInfo } from '../contract/ideApiTypes'
import { Filesystem } from '../gen/filesystem_pb'
import { Process } from '../gen/process_pb'
import type { RuntimeClients } from './runtimeClients'
import { SandboxActivity } from './sandboxActivity'
import type { SandboxAddress } from './sandboxAddress'
import { type SandboxFiles, sandboxFiles } from './sandboxFiles'
import { type ListeningPort, listeningPorts, portUrl, sandboxLink } from './sandboxPorts'
import { type SandboxProcesses, sandboxProcesses } from './sandboxProcesses'
import type { SessionState } from './sessionState'

/** How often a healthy session checks the sandbox's state (paused elsewhere, timeout, restart). */
const pollMs = 5000

/** What React renders from: replaced, never mutated, on every change. */
export interface SessionSnapshot {
  state: SessionState
  sandboxId: string | undefined
  runtimeUrl: string | undefined
  /** When the sandbox's timeout runs out (epoch ms); undefined where there is no platform. */
  endAt: number | undefined
  /** Pause, resume and timeouts need a platform; a bare runtime URL has none. */
  hasPlatform: boolean
  source: SandboxAddress['source']
  /** A student's page: their teacher has the sandbox open now. */
  teacherHere: boolean
  /** The owner's page of a class sandbox: whose it is (the owner is their teacher here). */
  student: string | undefined
}

/** Host names of this machine's loopback interface, as a page's location spells them. */
const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]'])

/**
 * One connected sandbox: its state machine, its clients, and the health loop that moves it
 * between running, paused, reconnecting (backoff with jitter), unreachable and gone. React
 * subscribes to it; streams (terminals, watches) ask it for transports and report trouble to it.
 */
/** How often a signed-out page asks whether it is signed in again. */
const signedOutRecheckMs = 30_000

export class SandboxSession {
  private snapshot: SessionSnapshot
  private readonly subscribers = new Subscribers()
  private readonly disposables = new DisposableStore()
  private timer: ReturnType<typeof setTimeout> | undefined
  private attempt = 0
  private disposed = false
  private info: RuntimeEndpoint | undefined
  private unary: RuntimeClients | undefined
  private lastWordsClient: RuntimeClients['process'] | undefined
  private shards = 0
  private refreshing: Promise<void> | undefined
  /** The sandbox's files, for features: the one place that guards, calls and maps errors. */
  readonly files: SandboxFiles = sandboxFiles(this)
  /** The sandbox's processes, for features, likewise. */
  readonly processes: SandboxProcesses = sandboxProcesses(this)
  /** When the page last saw the sandbox at work, for whoever polls it. */
  readonly activity = new SandboxActivity()
  /**
   * Whether the sandbox seems to run on the machine this page runs on: the local stack, opened
   * from a loopback address, whose delays are then the machine's own. A port forwarded from
   * elsewhere (over SSH, say) looks the same, so nothing costly may rest on it. Neither the
   * address nor the page's location changes, so it is settled once (predictive echo asks on
   * every key and every piece of output).
   */
  readonly onThisMachine: boolean

  constructor(readonly address: SandboxAddress) {
    this.snapshot = {
      state: { kind: 'connecting' },
      sandboxId: address.source === 'runtime' ? undefined : address.sandboxId,
      runtimeUrl: address.source === 'runtime' ? address.runtimeUrl : undefined,
      endAt: undefined,
      hasPlatform: address.source !== 'runtime',
      source: address.source,
      teacherHere: false,
      student: undefined,
    }
    this.onThisMachine =
      address.source === 'local' && typeof location !== 'undefined' && loopbackHosts.has(location.hostname)
    // The health loop's next check, whichever is scheduled then.
    this.disposables.add(toDisposable(() => clearTimeout(this.timer)))
  }

  /** Starts connecting; call once. */
  start(): void {
    void this.refresh()
  }

  subscribe = this.subscribers.add

  getSnapshot = (): SessionSnapshot => this.snapshot

  /** The runtime's URL and token, for /files; undefined until the session knows its runtime. */
  get endpoint(): RuntimeEndpoint | undefined {
    return this.info
  }

  /** Clients for unary calls (JSON); undefined until the session knows its runtime. */
  get clients(): RuntimeClients | undefined {
    return this.unary
  }

  /**
   * A process client whose calls outlive the page (fetch's `keepalive`): what a closing page says
   * last (that it leaves) still reaches the sandbox after the page is gone.
   */
  get lastWords(): RuntimeClients['process'] | undefined {
    return this.lastWordsClient
  }

  /**
   * Where one long-lived stream goes: a host shard of its own, so streams never exhaust the
   * browser's six connections per host over HTTP/1.1.
   */
  streamEndpoint(): RuntimeEndpoint | undefined {
    if (!this.info) return undefined
    return { ...this.info, runtimeUrl: shardedUrl(this.info.runtimeUrl, this.shards++) }
  }

  /** A binary transport for one long-lived stream, on a shard of its own (see `streamEndpoint`). */
  streamTransport(): Transport | undefined {
    const endpoint = this.streamEndpoint()
    return (
      endpoint &&
      runtimeTransport(endpoint.runtimeUrl, endpoint.accessToken, {
        binary: true,
        ...(endpoint.streamFetch ? { fetch: endpoint.streamFetch } : {}),
      })
    )
  }

  /** A stream or call failed: check the sandbox now instead of at the next poll. */
  reportTrouble(): void {
    if (this.snapshot.state.kind === 'running') void this.refresh()
  }

  /** Tries again at once while reconnecting. */
  retryNow(): void {
    void this.refresh()
  }

  async pause(): Promise<void> {
    await ideApi.pause(this.platformPath())
    await this.refresh()
  }

  async resume(): Promise<void> {
    this.apply(await ideApi.resume(this.platformPath()))
  }

  /**
   * What the sandbox uses now against its limits, from its platform's metrics; null where it has
   * no platform (a bare runtime URL) or no sample yet.
   */
  async usage(): Promise<SandboxUsage> {
    if (this.address.source === 'runtime') return null
    return ideApi.usage(this.address)
  }

  /** The ports the sandbox's programs listen on (its runtime's own left out). */
  ports(): Promise<ListeningPort[]> {
    return listeningPorts(this.files)
  }

  /**
   * The URL of one of the sandbox's ports, `{port}-{sandboxId}.{domain}` as on E2B; undefined
   * when its runtime is not reached that way (a bare runtime URL) or not known yet.
   */
  portUrl(port: number, path = '/'): string | undefined {
    const endpoint = this.endpoint
    return endpoint && portUrl(endpoint.runtimeUrl, port, path)
  }

  /** Where a link printed in the sandbox leads: its own ports for localhost links (see sandboxLink). */
  linkTarget(link: string): string {
    const endpoint = this.endpoint
    return endpoint ? sandboxLink(endpoint.runtimeUrl, link) : link
  }

  /** Sets the timeout to `seconds` from now. */
  async extend(seconds: number): Promise<void> {
    const { endAt } = await ideApi.setTimeout(this.platformPath(), seconds)
    this.update({ endAt: Date.parse(endAt) })
  }

  dispose(): void {
    this.disposed = true
    this.disposables.dispose()
    this.subscribers.clear()
  }

  private platformPath() {
    if (this.address.source === 'runtime')
      throw new Error('this sandbox was opened by runtime URL: it has no platform')
    return this.address
  }

  private refresh(): Promise<void> {
    this.refreshing ??= this.check().finally(() => {
      this.refreshing = undefined
    })
    return this.refreshing
  }

  private async check(): Promise<void> {
    clearTimeout(this.timer)
    try {
      if (this.address.source === 'runtime') {
        this.connectRuntime(this.address.runtimeUrl, this.address.accessToken)
        const healthy = await this.runtimeHealthy(this.address.runtimeUrl)
        if (!healthy) throw new ApiError(0, 'the runtime does not answer')
        this.setState({ kind: 'running' })
      } else {
        this.apply(await ideApi.session(this.address))
        if (this.snapshot.state.kind === 'running' && !(await this.runtimeHealthy(this.info?.runtimeUrl))) {
          this.setState({
            kind: 'unreachable',
            reason: 'the platform says the sandbox runs, but its runtime does not answer',
          })
        }
      }
      this.attempt = 0
      this.schedule(pollMs)
    } catch (err) {
      if (this.disposed) return
      if (err instanceof ApiError && err.status === 404) {
        this.setState({ kind: 'gone', reason: err.message })
        return
      }
      // The stack says this browser's sign-in opens nothing now: said at once, and asked again
      // only now and then (a sign-in in another tab, or a stack that answered wrongly once).
      if (err instanceof ApiError && err.status === 401) {
        this.setState({ kind: 'signed-out', reason: err.message })
        this.schedule(signedOutRecheckMs)
        return
      }
      this.attempt += 1
      const delay = backoffDelay(this.attempt)
      const reason = err instanceof Error ? err.message : String(err)
      this.setState({ kind: 'reconnecting', attempt: this.attempt, nextTryAt: Date.now() + delay, reason })
      this.schedule(delay)
    }
  }

  private apply(info: SessionInfo): void {
    this.connectRuntime(info.runtimeUrl, info.accessToken)
    this.update({
      sandboxId: info.sandboxId,
      runtimeUrl: info.runtimeUrl,
      endAt: Date.parse(info.endAt),
      teacherHere: info.teacherHere === true,
      student: info.student,
    })
    this.setState(
      info.state === 'paused' ? { kind: 'paused', processesLost: !!info.processesLost } : { kind: 'running' },
    )
  }

  private connectRuntime(runtimeUrl: string, accessToken: string | null): void {
    if (this.info?.runtimeUrl === runtimeUrl && this.info.accessToken === accessToken) return
    // The local stack's router tunnels calls over WebSockets: streams there need no host shards,
    // and keystrokes stream in every browser. E2B's edge has no tunnel; it speaks HTTP/2.
    const streamFetch = this.address.source === 'local' ? createTunnelFetch() : undefined
    this.info = {
      runtimeUrl,
      accessToken,
      ...(streamFetch ? { streamFetch } : {}),
      // The local stack's runtime is ours; E2B's and a runtime opened by its URL may be envd.
      extensions: this.address.source === 'local',
    }
    const transport = runtimeTransport(runtimeUrl, accessToken)
    this.unary = {
      filesystem: createClient(Filesystem, transport),
      process: createClient(Process, transport),
    }
    const outlivesPage: typeof fetch = (input, init) => fetch(input, { ...init, keepalive: true })
    this.lastWordsClient = createClient(
      Process,
      runtimeTransport(runtimeUrl, accessToken, { fetch: outlivesPage }),
    )
  }

  /** GET /health needs no token and no preflight; a paused or missing sandbox answers 502. */
  private async runtimeHealthy(runtimeUrl: string | undefined): Promise<boolean> {
    if (!runtimeUrl) return false
    try {
      const res = await fetch(`${runtimeUrl}/health`, { cache: 'no-store' })
      return res.ok
    } catch {
      return false
    }
  }

  private schedule(ms: number): void {
    if (this.disposed) return
    clearTimeout(this.timer)
    this.timer = setTimeout(() => void this.refresh(), ms)
  }

  private setState(state: SessionState): void {
    const same = JSON.stringify(state) === JSON.stringify(this.snapshot.state)
    if (!same) this.update({ state })
  }

  private update(patch: Partial<SessionSnapshot>): void {
    if (this.disposed) return
    this.snapshot = { ...this.snapshot, ...patch }
    this.subscribers.notify()
  }
}
