import { concatBytes } from '../../common/concatBytes'
import { randomId } from '../../common/randomId'
import { Subscribers } from '../../common/Subscribers'
import type { SandboxSession } from '../SandboxSession'
import { StdioProcess } from '../stdioProcess'
import { encodeMessage, type RelayMessage, RelayReader } from './relayFraming'

/** The tag of the relay process, the one every page of a sandbox looks for. */
export const relayTag = 'ide-collab-relay'

/**
 * A broadcast channel between the pages open on one sandbox, with nothing of ours in between:
 * `cat` started through the runtime's process API (no PTY, a stdin pipe, tagged), its stdin
 * written by every page and its stdout read by every page, as a terminal is. It works the same
 * against a stock E2B sandbox and on the local stack, authorised as the sandbox is (whoever may
 * start processes in it may speak here). The first page starts the relay; the others attach to
 * it; two that start one at once keep the lower pid, and the other is ended. Each page's lines
 * go as a terminal's keys do (StreamInput, no round trip per message; else SendInput in order),
 * each line one write never cut in two calls, so no page's line is ever cut by another's.
 * A page hears its own messages too and drops them.
 */
export class RelayChannel {
  /** This page, as its messages name it. */
  readonly me = randomId().replaceAll('-', '')
  private process: StdioProcess | undefined
  private pid: number | undefined
  private readonly reader: RelayReader
  private readonly listeners = new Set<(message: RelayMessage) => void>()
  private readonly stateSubscribers = new Subscribers()
  private nextId = 1
  private opening: Promise<void> | undefined
  private disposed = false

  /**
   * @param listenOnly a view-only guest's page: it hears, never writes (the stack refuses its
   *   input to any process) and never starts the relay, only attaches to one that runs
   */
  constructor(
    private readonly session: SandboxSession,
    readonly listenOnly = false,
  ) {
    this.reader = new RelayReader((message) => {
      if (message.sender === this.me) return
      for (const listener of this.listeners) listener(message)
    })
  }

  /** Whether messages can go and come now. */
  get open(): boolean {
    return this.pid !== undefined
  }

  /** Called when `open` changes (a new opening means others may have missed what was said). */
  onStateChange = this.stateSubscribers.add

  /** Listens to the other pages' messages; returns how to stop. */
  onMessage(listener: (message: RelayMessage) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** Finds the sandbox's relay, or starts it, and listens to it. Resolves once open. */
  connect(): Promise<void> {
    this.opening ??= this.openNow().finally(() => {
      this.opening = undefined
    })
    return this.opening
  }

  /** Says something to every other page; dropped while not open (an opening resynchronises). */
  publish(topic: string, payload: Uint8Array): void {
    if (!this.open || this.disposed || this.listenOnly) return
    for (const line of encodeMessage(this.me, this.nextId++, topic, payload)) this.process?.write(line)
  }

  /** Says something that must reach the others even as this page closes (that it leaves). */
  publishLast(topic: string, payload: Uint8Array): void {
    if (!this.open || this.disposed || this.listenOnly) return
    this.process?.writeLast(concatBytes(encodeMessage(this.me, this.nextId++, topic, payload)))
  }

  dispose(): void {
    this.disposed = true
    this.process?.dispose()
    this.process = undefined
    this.pid = undefined
    this.listeners.clear()
    this.stateSubscribers.clear()
  }

  private async openNow(): Promise<void> {
    const existing = await this.findRelay()
    if (existing !== undefined) {
      await this.listen((process) => process.attach(existing))
      return
    }
    // Found again with backoff, once someone who may start it has.
    if (this.listenOnly) throw new Error('no collaboration relay runs yet, and a view-only page starts none')
    const mine = await this.listen((process) => process.start())
    // Two pages may have started one at once: all keep the lowest pid.
    const lowest = await this.findRelay()
    if (lowest !== undefined && lowest !== mine) {
      await this.process?.kill()
      await this.listen((process) => process.attach(lowest))
    }
  }

  private async findRelay(): Promise<number | undefined> {
    const processes = await this.session.processes.list()
    const pids = processes.filter((p) => p.tag === relayTag).map((p) => p.pid)
    return pids.length ? Math.min(...pids) : undefined
  }

  private async listen(begin: (process: StdioProcess) => Promise<number>): Promise<number> {
    this.process?.dispose()
    const process = new StdioProcess(
      this.session,
      { command: 'exec cat', tag: relayTag, shared: true },
      {
        stdout: (bytes) => {
          if (process === this.process) this.reader.push(bytes)
        },
        stderr: () => {},
        ended: () => {
          if (process !== this.process) return
          this.process = undefined
          this.pid = undefined
          this.stateSubscribers.notify()
        },
      },
    )
    this.process = process
    const pid = await begin(process)
    if (this.disposed || process !== this.process) {
      process.dispose()
      throw new Error('the collaboration relay was closed while it opened')
    }
    this.pid = pid
    this.stateSubscribers.notify()
    return pid
  }
}
