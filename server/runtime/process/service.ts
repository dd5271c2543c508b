import { create } from '@bufbuild/protobuf'
import { Code, ConnectError, type HandlerContext, type ServiceImpl } from '@connectrpc/connect'
import {
  attachedPidsHeader,
  outputFlushHeader,
  outputStreamHeader,
  outputWindowHeader,
  replayEndHeader,
  replayFromHeader,
  replayStartHeader,
} from '../../../src/contract/runtimeExtensions'
import {
  type Process,
  type ProcessEvent,
  ProcessEventSchema,
  type ProcessInput,
  Signal,
} from '../../../src/gen/process_pb'
import { callingUser, type RuntimeContext } from '../context'
import { internal, invalidArgument, messageOf, unimplemented, unknown } from '../errors'
import { keepaliveIntervalMs } from '../keepalive'
import { releaseWhenClientLeaves, withKeepalive } from '../streamLoop'
import { ManagedProcess, type Subscription } from './managedProcess'
import { oomKillCounter, reportingOom } from './oomReport'
import { AckedStreams, parseOutputWindow } from './outputAcks'
import { ProcessTable } from './processTable'
import { spawnProcess } from './spawnProcess'
import { spawnSpec, terminalSize } from './spawnSpec'

const keepaliveEvent = (): ProcessEvent =>
  create(ProcessEventSchema, { event: { case: 'keepalive', value: {} } })

function parseReplayFrom(header: string | null): number | undefined {
  if (header === null) return undefined
  if (!/^\d{1,15}$/.test(header.trim()))
    throw invalidArgument(`${replayFromHeader} must be a byte offset, not '${header}'`)
  return Number(header.trim())
}

/** Subscribes a stream to a process, with the output window it asked for, and says so in headers. */
function subscribeStream(
  process: ManagedProcess,
  ctx: HandlerContext,
  acked: AckedStreams,
  replayFrom?: number,
): { sub: Subscription; forget: () => void } {
  const window = parseOutputWindow(ctx.requestHeader.get(outputWindowHeader))
  const sub = process.subscribe(replayFrom, window)
  if (window === undefined) return { sub, forget: () => {} }
  const { id, remove } = acked.add(sub.ack)
  ctx.responseHeader.set(outputWindowHeader, String(window))
  ctx.responseHeader.set(outputStreamHeader, id)
  return { sub, forget: remove }
}

/** `start{pid}` first, then the subscription's events with keepalives, until the process ends. */
async function* eventStream(
  pid: number,
  { sub, forget }: ReturnType<typeof subscribeStream>,
  ctx: HandlerContext,
) {
  // Detached the moment the client goes away, even if the stream is never resumed.
  const release = releaseWhenClientLeaves(ctx.signal, () => {
    forget()
    sub.close()
  })
  try {
    yield { event: create(ProcessEventSchema, { event: { case: 'start', value: { pid } } }) }
    const interval = keepaliveIntervalMs(ctx.requestHeader.get('keepalive-ping-interval'))
    for await (const event of withKeepalive(sub.events, interval, keepaliveEvent, ctx.signal)) yield { event }
  } finally {
    release()
  }
}

/** Checks and writes input; resolves to where it flushed the output, when it was a Ctrl-C that did. */
function writeInput(process: ManagedProcess, input: ProcessInput | undefined): Promise<number | undefined> {
  const value = input?.input
  if (!value || value.case === undefined) throw unimplemented('invalid input type: set pty or stdin')
  if (value.case === 'pty') {
    if (!process.io.isPty) throw internal('tty not assigned to process')
  } else {
    if (process.io.isPty) throw internal('stdin is not available for a PTY process: send the input as pty')
    if (!process.io.stdinOpen) throw internal('stdin not enabled or closed')
  }
  return process.input(value.value)
}

/** process.Process: start, attach to, feed, resize, signal and list processes (envd-api.md §5). */
export function processService(rt: RuntimeContext): {
  impl: ServiceImpl<typeof Process>
  /** Streams that take output acknowledgements (`POST /output-ack`). */
  acked: AckedStreams
  dispose(): void
} {
  const table = new ProcessTable()
  const acked = new AckedStreams()
  const oomKills = oomKillCounter(rt.options.oomEvents)

  const impl: ServiceImpl<typeof Process> = {
    list(_req, ctx) {
      const processes = table.list()
      const attached = processes.filter((p) => p.attached).map((p) => p.pid)
      ctx.responseHeader.set(attachedPidsHeader, attached.join(','))
      return {
        processes: processes.map((p) => ({
          config: p.config,
          pid: p.pid,
          ...(p.tag !== undefined ? { tag: p.tag } : {}),
        })),
      }
    },

    async *start(req, ctx) {
      const config = req.process
      if (!config) throw invalidArgument('process is required')
      const spec = spawnSpec(config, req, callingUser(ctx, rt), rt)
      let io: ReturnType<typeof spawnProcess>
      try {
        io = reportingOom(spawnProcess(spec), oomKills)
      } catch (err) {
        throw invalidArgument(`error starting process '${spec.cmd}': ${messageOf(err)}`)
      }
      const process = new ManagedProcess(io, config, req.tag, (p) => table.retire(p), ctx.timeoutMs())
      table.add(process)
      // Subscribed before any output can arrive, so Start never misses a byte.
      yield* eventStream(process.pid, subscribeStream(process, ctx, acked), ctx)
      // The lifetime's kill can deliver the end before the call's own deadline fires: the
      // stream ends the same way either way, as envd's (the process dies of its context).
      if (process.outlivedLifetime) throw new ConnectError('the operation timed out', Code.DeadlineExceeded)
    },

    async *connect(req, ctx) {
      const process = table.findAny(req.process)
      const stream = subscribeStream(
        process,
        ctx,
        acked,
        parseReplayFrom(ctx.requestHeader.get(replayFromHeader)),
      )
      const { replayStart, replayEnd } = stream.sub
      if (replayStart !== undefined) ctx.responseHeader.set(replayStartHeader, String(replayStart))
      if (replayEnd !== undefined) ctx.responseHeader.set(replayEndHeader, String(replayEnd))
      yield* eventStream(process.pid, stream, ctx)
    },

    update(req) {
      const process = table.findRunning(req.process)
      if (!req.pty) return {}
      if (!process.io.isPty) throw internal('tty not assigned to process')
      const { cols, rows } = terminalSize(req.pty.size)
      try {
        process.io.resize(cols, rows)
      } catch (err) {
        throw internal(`error resizing tty: ${messageOf(err)}`)
      }
      return {}
    },

    async sendInput(req, ctx) {
      const flushedTo = await writeInput(table.findRunning(req.process), req.input)
      if (flushedTo !== undefined) ctx.responseHeader.set(outputFlushHeader, String(flushedTo))
      return {}
    },

    async streamInput(requests) {
      let target: ManagedProcess | undefined
      for await (const req of requests) {
        const event = req.event
        if (event.case === 'start') target = table.findRunning(event.value.process)
        else if (!target) throw invalidArgument('the first StreamInput message must be start')
        // The flush, if any, reaches the client with its next acknowledgement.
        else if (event.case === 'data') void writeInput(target, event.value.input)
      }
      return {}
    },

    sendSignal(req) {
      const process = table.findRunning(req.process)
      const signal =
        req.signal === Signal.SIGKILL ? 'SIGKILL' : req.signal === Signal.SIGTERM ? 'SIGTERM' : undefined
      if (!signal) throw unimplemented('invalid signal: only SIGNAL_SIGTERM and SIGNAL_SIGKILL are supported')
      try {
        process.signal(signal)
      } catch (err) {
        throw internal(`error sending signal: ${messageOf(err)}`)
      }
      return {}
    },

    closeStdin(req) {
      const process = table.findRunning(req.process)
      if (process.io.isPty) {
        throw unknown('error closing stdin: cannot close stdin for PTY process — send Ctrl+D (0x04) instead')
      }
      process.io.closeStdin()
      return {}
    },
  }
  return { impl, acked, dispose: () => table.dispose() }
}
