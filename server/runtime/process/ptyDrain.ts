import { randomBytes } from 'node:crypto'
import { closeSync, constants, openSync, readFileSync, writeSync } from 'node:fs'
import type { IPty } from 'node-pty'
import { errnoCode } from '../errors'

/**
 * The drains look for their child's exit when any child of the runtime exits (SIGCHLD), and this
 * often besides, in case a signal was missed: a terminal open for hours costs no wake-ups in between
 * (polling every 25 ms cost 40 a second for each).
 */
const exitPollMs = 1000
/** A full terminal refuses the marker for now: the drain tries again this soon. */
const markerRetryMs = 25

/** Drains whose child has not exited yet; one SIGCHLD listener and one timer serve them all. */
const waiting = new Set<() => void>()
const checkAllDrains = () => {
  for (const check of waiting) check()
}
let fallbackTimer: NodeJS.Timeout | undefined

function startWaiting(check: () => void): void {
  if (waiting.size === 0) {
    process.on('SIGCHLD', checkAllDrains)
    fallbackTimer = setInterval(checkAllDrains, exitPollMs).unref()
  }
  waiting.add(check)
}

function stopWaiting(check: () => void): void {
  if (!waiting.delete(check) || waiting.size > 0) return
  process.off('SIGCHLD', checkAllDrains)
  clearInterval(fallbackTimer)
}

/** The process has exited: gone, or a zombie not reaped yet (node-pty reaps it on a thread of its own). */
function hasExited(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // The state follows the command's name, which sits in parentheses and may hold either.
    return stat[stat.lastIndexOf(')') + 2] === 'Z'
  } catch (err) {
    if (errnoCode(err) === 'ENOENT') return true
  }
  // No /proc to read: a signal 0 tells whether it is still there (a zombie counts as there).
  try {
    process.kill(pid, 0)
    return false
  } catch {
    return true
  }
}

/** How long after the exit the drain waits for its marker before giving up (output stopped by XOFF). */
const giveUpAfterMs = 2000

/** What node-pty keeps private but the drain has to reach. */
interface PtyInternals {
  ptsName?: string
  _socket?: { destroy(error?: Error): unknown }
}

/**
 * Makes sure a terminal's output is read to the end before it is closed.
 *
 * Linux answers the master's read with EIO once the last slave fd closes, even while output still
 * waits in the kernel's buffers, and node-pty destroys its socket 200 ms after the child exits,
 * read or not. So the drain holds a slave fd of its own, and once the child has exited writes a
 * unique marker through it: the terminal keeps order, so when the marker comes out of the master,
 * everything before it has been read. Only then does it let go of the slave and let node-pty close.
 * `filter` strips the marker from the output and must see every chunk, in order.
 */
export class PtyDrain {
  private readonly marker = Buffer.from(`\x1b_SBXDRAIN${randomBytes(8).toString('hex').toUpperCase()}\x1b\\`)
  private slave: number | undefined
  private exited = false
  private done = false
  private held = Buffer.alloc(0)
  private readonly check = () => this.checkExit()
  private giveUp: NodeJS.Timeout | undefined
  private destroyDeferred: (() => void) | undefined

  constructor(
    private readonly term: IPty,
    /** Called once the child has exited, so a paused terminal can read on. */
    private readonly onChildExit: () => void,
  ) {
    const internals = term as IPty & PtyInternals
    try {
      // Non-blocking: writing the marker must never stall the runtime when the terminal is full.
      if (internals.ptsName) {
        this.slave = openSync(internals.ptsName, constants.O_RDWR | constants.O_NOCTTY | constants.O_NONBLOCK)
      }
    } catch {}
    const socket = internals._socket
    if (this.slave !== undefined && socket) {
      const destroy = socket.destroy.bind(socket)
      socket.destroy = (error?: Error) => {
        if (this.exited && !this.done) this.destroyDeferred = () => destroy(error)
        else destroy(error)
        return socket
      }
    }
    startWaiting(this.check)
  }

  /** Passes output on, holding back only what could be the start of the marker once draining. */
  filter(data: Buffer): Buffer {
    if (!this.exited || this.done) return data
    const joined = this.held.length ? Buffer.concat([this.held, data]) : data
    const at = joined.indexOf(this.marker)
    if (at !== -1) {
      this.held = Buffer.alloc(0)
      this.finish()
      return Buffer.concat([joined.subarray(0, at), joined.subarray(at + this.marker.length)])
    }
    const keep = Math.min(joined.length, this.marker.length - 1)
    this.held = Buffer.from(joined.subarray(joined.length - keep))
    return joined.subarray(0, joined.length - keep)
  }

  /** Stops watching; for a terminal that ended (node-pty's exit) or is being disposed. */
  dispose(): void {
    stopWaiting(this.check)
    clearTimeout(this.giveUp)
    this.releaseSlave()
  }

  private checkExit(): void {
    if (this.exited || !hasExited(this.term.pid)) return
    this.exited = true
    stopWaiting(this.check)
    this.onChildExit()
    if (this.slave === undefined) {
      this.finish()
      return
    }
    this.giveUp = setTimeout(() => this.finish(), giveUpAfterMs)
    this.writeMarker()
  }

  private writeMarker(): void {
    if (this.done || this.slave === undefined) return
    try {
      writeSync(this.slave, this.marker)
    } catch (err) {
      // A full terminal: try again once the master has read some of it.
      if (errnoCode(err) === 'EAGAIN') setTimeout(() => this.writeMarker(), markerRetryMs)
      else this.finish()
    }
  }

  private finish(): void {
    if (this.done) return
    this.done = true
    clearTimeout(this.giveUp)
    this.releaseSlave()
    this.destroyDeferred?.()
    this.destroyDeferred = undefined
  }

  private releaseSlave(): void {
    if (this.slave === undefined) return
    closeSync(this.slave)
    this.slave = undefined
  }
}
