import { create } from '@bufbuild/protobuf'
import { Code, ConnectError } from '@connectrpc/connect'
import { type ProcessConfig, type ProcessEvent, ProcessEventSchema } from '../../../src/gen/process_pb'
import { Channel } from '../channel'
import type { ExitStatus } from './exitStatus'
import { interruptFlushes } from './interruptFlushes'
import { OutputCoalescer } from './outputCoalescer'
import { eventBytesFor, type FlowSubscriber, OutputFlow, stalledAfterMs } from './outputFlow'
import { type OutputChunk, type OutputKind, OutputLog } from './outputLog'
import type { ProcessIO } from './spawnProcess'

/** Output kept per process for clients that reconnect and ask for a replay. */
export const replayCapacityBytes = 1024 * 1024
/** envd's chunk limits: PTY output in chunks of at most 16 KiB, pipes 32 KiB. */
const ptyChunkBytes = 16 * 1024
const pipeChunkBytes = 32 * 1024
/** A Ctrl-C flushes output for clients only when one of them has at least this much unhandled. */
const flushWorthBytes = 64 * 1024

/** One client's view of a process: its events, and where a replay started. */
export interface Subscription {
  events: Channel<ProcessEvent>
  /** Absolute offset of the first replayed byte, when a replay was asked for. */
  replayStart?: number
  /** With a replay: where the replayed output ends, and what comes live begins (absolute). */
  replayEnd?: number
  /**
   * For a subscription with a window: the client has handled the output before this absolute
   * offset. Answers where a Ctrl-C flushed the output, when that is further on: the client may
   * skip what it has not shown before it, as a terminal drops its output queue on an interrupt.
   * With `window`, the window changes to it from now on.
   */
  ack(offset: number, window?: number): Promise<number | undefined>
  close(): void
}

interface Subscriber {
  events: Channel<ProcessEvent>
  /** Largest data event it is sent. */
  eventBytes: number
  flow: FlowSubscriber
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
  private readonly flow: OutputFlow
  private readonly output: OutputCoalescer
  private lifetime: NodeJS.Timeout | undefined
  private readonly chunkBytes: number
  /** Output before this absolute offset was flushed by an interrupt (see `input`). */
  private flushedTo = 0
  /** Resolves once the termios check of the latest interrupt is done (see `input`); never rejects. */
  private interruptCheck: Promise<void> = Promise.resolve()
  /** Set once the process ended and all its output was delivered. */
  status: ExitStatus | undefined

  /** Whether some stream (Start or Connect) reads its output now. */
  get attached(): boolean {
    return this.subscribers.size > 0
  }
  /** Killed because its lifetime (Connect-Timeout-Ms on Start) ran out. */
  outlivedLifetime = false

  constructor(
    readonly io: ProcessIO,
    readonly config: ProcessConfig,
    readonly tag: string | undefined,
    onEnded: (process: ManagedProcess) => void,
    lifetimeMs?: number,
  ) {
    this.chunkBytes = io.isPty ? ptyChunkBytes : pipeChunkBytes
    this.flow = new OutputFlow(io)
    this.output = new OutputCoalescer({
      publish: (kind, data) => this.publish(kind, data),
      gatherBytes: () => this.gatherBytes(),
    })
    io.onOutput((kind, data) => this.output.collect(kind, data))
    io.onExit((status) => {
      this.output.flush()
      this.status = status
      clearTimeout(this.lifetime)
      this.flow.end()
      const end = endEvent(status)
      for (const sub of this.subscribers) {
        sub.events.push(end)
        sub.events.close()
      }
      this.subscribers.clear()
      onEnded(this)
    })
    // Connect-Timeout-Ms on Start is the process's lifetime, as in envd.
    if (lifetimeMs !== undefined)
      this.lifetime = setTimeout(() => {
        this.outlivedLifetime = true
        this.signal('SIGKILL')
      }, lifetimeMs)
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
    const replay = replayFrom === undefined ? [] : this.log.since(replayFrom)
    const replayStart = replayFrom === undefined ? undefined : (replay[0]?.offset ?? this.log.end)
    const events = new Channel(weigh, () => this.flow.took(sub.flow))
    const sub: Subscriber = {
      events,
      eventBytes: eventBytesFor(window, this.chunkBytes),
      flow: this.flow.add({
        window,
        sentFrom: this.log.end,
        // A replay is sent unacknowledged, so it counts against the window.
        ackedFrom: replayStart ?? this.log.end,
        queued: () => events.weight,
        onStalled: () => this.cutLoose(sub),
      }),
    }
    for (const chunk of replay) events.push(dataEvent(chunk))
    if (this.status) {
      events.push(endEvent(this.status))
      events.close()
    } else {
      this.subscribers.add(sub)
    }
    return {
      events,
      ...(replayStart !== undefined ? { replayStart, replayEnd: this.log.end } : {}),
      ack: async (offset, window) => {
        if (window !== undefined && sub.flow.window !== undefined) {
          sub.eventBytes = eventBytesFor(window, this.chunkBytes)
          this.flow.resize(sub.flow, window)
        }
        this.flow.acknowledged(sub.flow, offset)
        await this.interruptCheck
        return this.flushedTo > offset ? this.flushedTo : undefined
      },
      close: () => this.unsubscribe(sub),
    }
  }

  /**
   * Input for the process. A real terminal that gets Ctrl-C (with `isig` and without `noflsh`)
   * drops the output it has not yet shown. Here that output is on its way to clients, so when a
   * client with a window has much of it unhandled, the offset where the interrupt came is noted
   * (once termios says the terminal flushes), returned, and answered to acknowledgements, and the
   * client skips what it has not shown yet. Nothing is dropped here: offsets and replay stay whole.
   * Acknowledgements that come while termios is being read wait for it, so their answer says it.
   */
  input(data: Uint8Array): Promise<number | undefined> {
    const cut = this.interruptCut(data)
    this.io.write(data)
    const tty = this.io.ttyPath
    if (cut === undefined || !tty) return Promise.resolve(undefined)
    const checked = interruptFlushes(tty).then((flushes) => {
      if (!flushes) return undefined
      this.flushedTo = Math.max(this.flushedTo, cut)
      this.flow.flushedTo(cut)
      return cut
    })
    const settle = () => {}
    this.interruptCheck = checked.then(settle, settle)
    return checked
  }

  /** Sends a signal to the process (not its group, as envd). */
  signal(signal: NodeJS.Signals): void {
    if (!this.status) this.io.kill(signal)
  }

  /** Output is gathered until the largest event a subscriber takes is full. */
  private gatherBytes(): number {
    let most = this.chunkBytes
    for (const sub of this.subscribers) most = Math.max(most, sub.eventBytes)
    return most
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
    }
    this.flow.sentUpTo(this.log.end)
  }

  /** Where output stands as Ctrl-C goes in, when it may be worth flushing for a client. */
  private interruptCut(data: Uint8Array): number | undefined {
    if (!this.io.isPty || !data.includes(0x03)) return undefined
    if (this.flow.mostUnacknowledged() <= flushWorthBytes) return undefined
    this.output.flush()
    return this.log.end
  }

  private unsubscribe(sub: Subscriber): void {
    this.subscribers.delete(sub)
    sub.events.close()
    this.flow.remove(sub.flow)
  }

  /** Ends the stream of a subscriber the flow gave up on for stalling (it already left the flow). */
  private cutLoose(sub: Subscriber): void {
    this.subscribers.delete(sub)
    sub.events.close(
      new ConnectError(
        `stream stalled: the client ${sub.flow.window === undefined ? 'read' : 'acknowledged'} nothing for ${stalledAfterMs / 1000} s; reconnect to resume`,
        Code.ResourceExhausted,
      ),
    )
  }
}
