import { create } from '@bufbuild/protobuf'
import { Code, ConnectError } from '@connectrpc/connect'
import { type ProcessConfig, type ProcessEvent, ProcessEventSchema } from '../../../src/gen/process_pb'
import { Channel } from '../channel'
import type { ExitStatus } from './exitStatus'
import { interruptFlushes } from './interruptFlushes'
import { type OutputChunk, type OutputKind, OutputLog } from './outputLog'
import type { ProcessIO } from './spawnProcess'

/** Output kept per process for clients that reconnect and ask for a replay. */
export const replayCapacityBytes = 1024 * 1024
/** envd's chunk limits: PTY output in chunks of at most 16 KiB, pipes 32 KiB. */
const ptyChunkBytes = 16 * 1024
const pipeChunkBytes = 32 * 1024
/**
 * A client that acknowledges output (ours) takes events of up to a quarter of its window, and at
 * most this: a flood then crosses every hop (the socket, the router, the browser's network
 * stack, the page) in a few large messages instead of many small ones, and each message costs
 * every hop about the same. A quarter keeps what may overshoot the window small beside it.
 */
const ackedEventBytes = 256 * 1024
/** A subscriber with more than this queued pauses the process's output... */
const pauseAboveBytes = 256 * 1024
/** ...until every subscriber is back below this. */
const resumeBelowBytes = 64 * 1024
/** Output arriving within this long of other output is gathered, for at most `gatherForMs`. */
const busyWithinMs = 5
const gatherForMs = 2
/** A Ctrl-C flushes output for clients only when one of them has at least this much unhandled. */
const flushWorthBytes = 64 * 1024
/** A subscriber that took nothing for this long while behind is cut loose, so others go on. */
const stalledAfterMs = 5_000

/** One client's view of a process: its events, and where a replay started. */
export interface Subscription {
  events: Channel<ProcessEvent>
  /** Absolute offset of the first replayed byte, when a replay was asked for. */
  replayStart?: number
  /**
   * For a subscription with a window: the client has handled the output before this absolute
   * offset. Returns where a Ctrl-C flushed the output, when that is further on: the client may
   * skip what it has not shown before it, as a terminal drops its output queue on an interrupt.
   */
  ack(offset: number): number | undefined
  close(): void
}

interface Subscriber {
  events: Channel<ProcessEvent>
  /**
   * Acknowledged output (our extension): the client acknowledges output it has handled, and the
   * process pauses while more than `window` bytes sent to it are unacknowledged. Without a window,
   * what waits in the queue decides, which cannot see the bytes in sockets and the browser.
   */
  window: number | undefined
  /** Absolute offset just past the last byte queued for it. */
  sent: number
  /** Absolute offset up to which it acknowledged output. */
  acked: number
  /** When it last took an event (no window) or acknowledged output (window). */
  lastProgress: number
  /** Largest data event it is sent. */
  eventBytes: number
}

const weigh = (event: ProcessEvent) =>
  event.event.case === 'data' ? (event.event.value.output.value?.length ?? 0) : 0

function dataEvent({ kind, data }: Pick<OutputChunk, 'kind' | 'data'>): ProcessEvent {
  return create(ProcessEventSchema, {
    event: { case: 'data', value: { output: { case: kind, value: data } } },
  })
}

function endEvent(status: ExitStatus): ProcessEvent {
  return create(ProcessEventSchema, { event: { case: 'end', value: status } })
}

/**
 * A process the runtime started: fans its output out to every subscribed stream, keeps the
 * recent output for replays, and holds the process back while a subscriber lags, so memory
 * stays bounded however slow a client is.
 */
export class ManagedProcess {
  private readonly log = new OutputLog(replayCapacityBytes)
  private readonly subscribers = new Set<Subscriber>()
  private paused = false
  private stallWatch: NodeJS.Timeout | undefined
  private lifetime: NodeJS.Timeout | undefined
  /** Output read in this turn of the event loop, not yet published. */
  private pending: { kind: OutputKind; parts: Uint8Array[]; bytes: number } | undefined
  private readonly chunkBytes: number
  private flushTimer: NodeJS.Timeout | undefined
  private lastOutputAt = Number.NEGATIVE_INFINITY
  /** Output before this absolute offset was flushed by an interrupt (see `input`). */
  private flushedTo = 0
  /** Set once the process ended and all its output was delivered. */
  status: ExitStatus | undefined

  constructor(
    readonly io: ProcessIO,
    readonly config: ProcessConfig,
    readonly tag: string | undefined,
    onEnded: (process: ManagedProcess) => void,
    lifetimeMs?: number,
  ) {
    this.chunkBytes = io.isPty ? ptyChunkBytes : pipeChunkBytes
    io.onOutput((kind, data) => this.collect(kind, data))
    io.onExit((status) => {
      this.flush()
      this.status = status
      clearTimeout(this.lifetime)
      clearInterval(this.stallWatch)
      const end = endEvent(status)
      for (const sub of this.subscribers) {
        sub.events.push(end)
        sub.events.close()
      }
      this.subscribers.clear()
      onEnded(this)
    })
    // Connect-Timeout-Ms on Start is the process's lifetime, as in envd.
    if (lifetimeMs !== undefined) this.lifetime = setTimeout(() => this.signal('SIGKILL'), lifetimeMs)
  }

  get pid(): number {
    return this.io.pid
  }

  /**
   * Starts delivering events. With `replayFrom` (an absolute output offset), the output still
   * held from there on comes first; without it, only output from now on (as envd). With a
   * `window`, output is held back by the client's acknowledgements (`ack`) instead of its queue.
   */
  subscribe(replayFrom?: number, window?: number): Subscription {
    const sub: Subscriber = {
      events: new Channel(weigh, () => this.taken(sub)),
      window,
      sent: this.log.end,
      acked: this.log.end,
      lastProgress: Date.now(),
      eventBytes:
        window === undefined
          ? this.chunkBytes
          : Math.max(this.chunkBytes, Math.min(ackedEventBytes, window / 4)),
    }
    const replay = replayFrom === undefined ? [] : this.log.since(replayFrom)
    for (const chunk of replay) sub.events.push(dataEvent(chunk))
    const replayStart = replayFrom === undefined ? undefined : (replay[0]?.offset ?? this.log.end)
    if (replayStart !== undefined) sub.acked = replayStart
    if (this.status) {
      sub.events.push(endEvent(this.status))
      sub.events.close()
    } else {
      this.subscribers.add(sub)
    }
    return {
      events: sub.events,
      ...(replayStart !== undefined ? { replayStart } : {}),
      ack: (offset) => this.acknowledged(sub, offset),
      close: () => this.unsubscribe(sub),
    }
  }

  /**
   * Input for the process. A real terminal that gets Ctrl-C (with `isig` and without `noflsh`)
   * drops the output it has not yet shown. Here that output is on its way to clients, so when a
   * client with a window has much of it unhandled, the offset where the interrupt came is noted
   * (once termios says the terminal flushes), returned, and answered to acknowledgements, and the
   * client skips what it has not shown yet. Nothing is dropped here: offsets and replay stay whole.
   */
  async input(data: Uint8Array): Promise<number | undefined> {
    const cut = this.interruptCut(data)
    this.io.write(data)
    const tty = this.io.ttyPath
    if (cut === undefined || !tty || !(await interruptFlushes(tty))) return undefined
    this.flushedTo = Math.max(this.flushedTo, cut)
    // Clients skip the flushed output unshown: waiting for them to acknowledge it would only hold
    // back what comes after the interrupt (the prompt).
    for (const sub of this.subscribers) {
      if (sub.window !== undefined && sub.acked < cut) sub.acked = Math.min(cut, sub.sent)
    }
    this.resumeIfCaughtUp()
    return cut
  }

  /** Sends a signal to the process (not its group, as envd). */
  signal(signal: NodeJS.Signals): void {
    if (!this.status) this.io.kill(signal)
  }

  /**
   * A terminal hands its output over in reads of at most 4 KiB, one per wake-up. Publishing each
   * as its own event would pay the per-event cost (encoding, envelope, write) before the next
   * read and hold the process back. So output that follows other output within a moment is
   * gathered for up to 2 ms, or until the largest event a subscriber takes is full; a lone read,
   * such as a keystroke's echo, goes out at once. Order across stdout and stderr is kept.
   */
  private collect(kind: OutputKind, data: Uint8Array): void {
    if (this.pending && this.pending.kind !== kind) this.flush()
    const now = performance.now()
    const busy = now - this.lastOutputAt < busyWithinMs
    this.lastOutputAt = now
    if (!this.pending) {
      if (!busy) {
        this.publish(kind, data)
        return
      }
      this.pending = { kind, parts: [], bytes: 0 }
      this.flushTimer = setTimeout(() => this.flush(), gatherForMs)
    }
    this.pending.parts.push(data)
    this.pending.bytes += data.length
    if (this.pending.bytes >= this.gatherBytes()) this.flush()
  }

  private gatherBytes(): number {
    let most = this.chunkBytes
    for (const sub of this.subscribers) most = Math.max(most, sub.eventBytes)
    return most
  }

  private flush(): void {
    const pending = this.pending
    if (!pending) return
    this.pending = undefined
    clearTimeout(this.flushTimer)
    this.publish(
      pending.kind,
      pending.parts.length === 1 ? (pending.parts[0] as Uint8Array) : Buffer.concat(pending.parts),
    )
  }

  /** Keeps the output (in envd's chunks, which replays send) and sends it to every subscriber in its event size. */
  private publish(kind: OutputKind, data: Uint8Array): void {
    for (let at = 0; at < data.length; at += this.chunkBytes) {
      this.log.append(kind, data.subarray(at, at + this.chunkBytes))
    }
    const eventsBySize = new Map<number, ProcessEvent[]>()
    for (const sub of this.subscribers) {
      let events = eventsBySize.get(sub.eventBytes)
      if (!events) {
        events = []
        for (let at = 0; at < data.length; at += sub.eventBytes) {
          events.push(dataEvent({ kind, data: data.subarray(at, at + sub.eventBytes) }))
        }
        eventsBySize.set(sub.eventBytes, events)
      }
      for (const event of events) sub.events.push(event)
      sub.sent = this.log.end
    }
    if (!this.paused && [...this.subscribers].some(isBehind)) this.pause()
  }

  private taken(sub: Subscriber): void {
    if (sub.window === undefined) sub.lastProgress = Date.now()
    this.resumeIfCaughtUp()
  }

  private acknowledged(sub: Subscriber, offset: number): number | undefined {
    if (sub.window !== undefined && offset > sub.acked) {
      sub.acked = Math.min(offset, sub.sent)
      sub.lastProgress = Date.now()
      this.resumeIfCaughtUp()
    }
    return this.flushedTo > offset ? this.flushedTo : undefined
  }

  /** Where output stands as Ctrl-C goes in, when it may be worth flushing for a client. */
  private interruptCut(data: Uint8Array): number | undefined {
    if (!this.io.isPty || !data.includes(0x03)) return undefined
    const lagging = [...this.subscribers].some(
      (s) => s.window !== undefined && s.sent - s.acked > flushWorthBytes,
    )
    if (!lagging) return undefined
    this.flush()
    return this.log.end
  }

  private unsubscribe(sub: Subscriber): void {
    this.subscribers.delete(sub)
    sub.events.close()
    this.resumeIfCaughtUp()
  }

  private resumeIfCaughtUp(): void {
    if (this.paused && [...this.subscribers].every(caughtUp)) this.resume()
  }

  private pause(): void {
    this.paused = true
    this.io.pause()
    this.stallWatch = setInterval(() => this.dropStalled(), 1000)
  }

  private resume(): void {
    this.paused = false
    clearInterval(this.stallWatch)
    this.io.resume()
  }

  private dropStalled(): void {
    const now = Date.now()
    for (const sub of this.subscribers) {
      if (isBehind(sub) && now - sub.lastProgress > stalledAfterMs) {
        this.subscribers.delete(sub)
        sub.events.close(
          new ConnectError(
            `stream stalled: the client ${sub.window === undefined ? 'read' : 'acknowledged'} nothing for ${stalledAfterMs / 1000} s; reconnect to resume`,
            Code.ResourceExhausted,
          ),
        )
      }
    }
    this.resumeIfCaughtUp()
  }
}

/** Output sent to a subscriber and not yet taken (no window) or acknowledged (window). */
const backlog = (sub: Subscriber) => (sub.window === undefined ? sub.events.weight : sub.sent - sub.acked)

/** Holds the process back. */
const isBehind = (sub: Subscriber) => backlog(sub) > (sub.window ?? pauseAboveBytes)

/**
 * Lets it go on. With a window, as soon as less than the window is unacknowledged: the client
 * acknowledges in small steps, so the window stays full and the output keeps flowing.
 */
const caughtUp = (sub: Subscriber) => backlog(sub) < (sub.window ?? resumeBelowBytes)
