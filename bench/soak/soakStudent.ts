// One simulated student's day, paced like a person (seeded): lines typed into a terminal a key at a
// time, a save now and then (read back, and seen by the open watch), a look at the preview of the
// server they started, and once in a while their sandbox paused (by the teacher, or by its timeout)
// and resumed when they come back. One thing at a time, as a person does; every failure is counted.

import type { StudentIde } from './joinAsStudent'
import type { SoakErrors } from './soakErrors'
import type { SoakTeacher } from './soakTeacher'
import { SoakTerminal } from './soakTerminal'
import { SoakWatch } from './soakWatch'
import { type StudentRuntime, studentRuntime } from './studentRuntime'

const home = '/home/user'
const previewPort = 8000
/** How long a save may take to show in the watch, and a pause to take hold. */
const showsWithinMs = 5_000

/** What a student did, for the table. */
export interface StudentTally {
  keys: number
  lost: number
  misordered: number
  lines: number
  saves: number
  previews: number
  pauses: number
  watchEvents: number
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)))
const letters = 'abcdefghijklmnopqrstuvwxyz'

export interface StudentOptions {
  ide: StudentIde
  /** Pauses sandboxes as the dashboard does, and is told when one is being paused or resumed. */
  teacher: Pick<SoakTeacher, 'pause' | 'markAway'>
  errors: SoakErrors
  /** Seeded, this student's own. */
  random: () => number
  /** How long the whole day is, to space pauses in a short run too. */
  dayMs: number
}

export class SoakStudent {
  readonly tally: StudentTally = {
    keys: 0,
    lost: 0,
    misordered: 0,
    lines: 0,
    saves: 0,
    previews: 0,
    pauses: 0,
    watchEvents: 0,
  }
  private rt: StudentRuntime | undefined
  private terminal: SoakTerminal | undefined
  private watch: SoakWatch | undefined

  constructor(private readonly o: StudentOptions) {}

  get name(): string {
    return this.o.ide.student
  }

  /** A uniform pick in [low, high). */
  private between(low: number, high: number): number {
    return low + this.o.random() * (high - low)
  }

  /** Opens what the IDE opens: a terminal, the home's watch; and starts the server the preview shows. */
  async setUp(): Promise<void> {
    const session = await this.o.ide.session()
    this.rt = studentRuntime(session)
    this.terminal = new SoakTerminal(this.rt)
    await this.terminal.open()
    this.watch = new SoakWatch(this.rt, home)
    await this.watch.open()
    await this.startPreviewServer(this.rt)
  }

  /** Works until `until` (performance.now() time), then stops at the end of what it was doing. */
  async work(until: number): Promise<void> {
    const now = performance.now()
    let nextSave = now + this.between(10_000, 30_000)
    let nextPreview = now + this.between(30_000, 90_000)
    // About every ten minutes, or twice in a short run, so a few minutes still see one.
    const pauseEvery = Math.min(10 * 60_000, this.o.dayMs / 2)
    let nextPause = now + pauseEvery * this.between(0.3, 1)
    while (performance.now() < until) {
      await this.act('typing a line', () => this.typeLine())
      const at = performance.now()
      if (at >= nextSave) {
        await this.act('saving a file', () => this.save())
        nextSave = at + this.between(10_000, 30_000)
      }
      if (at >= nextPreview) {
        await this.act('looking at the preview', () => this.preview())
        nextPreview = at + this.between(30_000, 90_000)
      }
      // Not in the last minute: a resume then would end after the day.
      if (at >= nextPause && until - at > 60_000) {
        await this.act('being paused and resumed', () => this.pauseAndResume())
        nextPause = performance.now() + pauseEvery * this.between(0.5, 1.5)
      }
      await sleep(Math.min(this.between(1_000, 6_000), until - performance.now()))
    }
    this.tally.watchEvents = this.watch?.events ?? 0
  }

  /** Ends this student's streams; the shell and the server end with the sandbox. */
  close(): void {
    this.terminal?.close()
    this.watch?.close()
  }

  private async act(what: string, action: () => Promise<void>): Promise<void> {
    try {
      await action()
    } catch (err) {
      this.o.errors.add(this.name, what, err)
      // As the IDE does after trouble: resume if paused, then open the streams again.
      await this.recover().catch((again) => this.o.errors.add(this.name, 'recovering', again))
    }
  }

  private async recover(): Promise<void> {
    const session = await this.o.ide.session()
    if (session.state === 'paused') await this.resume()
    if (!this.terminal?.streaming) await this.terminal?.reattach()
    await this.watch?.open()
  }

  /** `echo` and a few words, a key every ~150 ms, each echoed before the next; then Enter. */
  private async typeLine(): Promise<void> {
    const terminal = this.terminal as SoakTerminal
    const words = Array.from({ length: Math.floor(this.between(2, 7)) }, () =>
      Array.from(
        { length: Math.floor(this.between(2, 9)) },
        () => letters[Math.floor(this.between(0, 26))],
      ).join(''),
    ).join(' ')
    const typed = await terminal.typeLine(`echo ${words}`, words, () => this.between(80, 220))
    this.tally.keys += typed.keys + 1
    this.tally.lost += typed.lost
    this.tally.misordered += typed.misordered
    this.tally.lines++
  }

  /** Saves one of a few files (1 to 8 KB of code-like lines), reads it back, and waits for the watch to show it. */
  private async save(): Promise<void> {
    const rt = this.rt as StudentRuntime
    const name = `soak/notes-${this.tally.saves % 3}.py`
    const path = `${home}/${name}`
    const lines = Math.floor(this.between(30, 240))
    let text = `# ${this.name}, save ${this.tally.saves + 1}\n`
    for (let i = 0; i < lines; i++) text += `value_${i} = ${Math.floor(this.between(0, 1e6))}  # note\n`
    const since = performance.now()
    await rt.post(`/files?${new URLSearchParams({ path })}`, text, {
      'Content-Type': 'application/octet-stream',
    })
    const back = await rt.readFile(path)
    if (back !== text)
      throw new Error(`${name} read back ${back.length} characters, not the ${text.length} saved`)
    if (!(await (this.watch as SoakWatch).sawSince(name, since, showsWithinMs)))
      throw new Error(`the watch showed no event for ${name} within ${showsWithinMs / 1000} s of its save`)
    this.tally.saves++
  }

  /** Loads the preview's page, as its frame does, through the stack's port routing. */
  private async preview(): Promise<void> {
    const page = await (this.rt as StudentRuntime).getPort(previewPort, '/')
    if (page.status !== 200 || !page.text.includes('Directory listing'))
      throw new Error(`port ${previewPort} answered ${page.status}: ${page.text.slice(0, 120)}`)
    this.tally.previews++
  }

  /** `python3 -m http.server`, started once as a student starts a server; it keeps running after its stream ends. */
  private async startPreviewServer(rt: StudentRuntime): Promise<void> {
    const abort = new AbortController()
    const events = rt.proc
      .start(
        {
          process: {
            cmd: '/bin/bash',
            args: ['-l', '-c', `exec python3 -m http.server ${previewPort}`],
            cwd: home,
          },
          tag: 'soak-preview',
          stdin: false,
        },
        { signal: abort.signal },
      )
      [Symbol.asyncIterator]()
    const first = await events.next()
    abort.abort()
    if (first.done || first.value.event?.event.case !== 'start')
      throw new Error('the preview server did not start')
    const deadline = performance.now() + 15_000
    for (;;) {
      const page = await rt.getPort(previewPort, '/')
      if (page.status === 200) return
      if (performance.now() > deadline)
        throw new Error(`port ${previewPort} still answers ${page.status} 15 s after the server started`)
      await sleep(250)
    }
  }

  /**
   * Paused by the teacher's dashboard, or by the sandbox's timeout (set to a second), taken in
   * turn; away a while; then resumed as their page does when they come back, and reconnected.
   */
  private async pauseAndResume(): Promise<void> {
    const { ide, teacher } = this.o
    teacher.markAway(ide.sandboxId, true)
    try {
      await this.awayAndBack()
    } finally {
      teacher.markAway(ide.sandboxId, false)
    }
    this.tally.pauses++
  }

  private async awayAndBack(): Promise<void> {
    const { ide, teacher } = this.o
    if (this.tally.pauses % 2 === 0) await teacher.pause(ide.sandboxId)
    else await ide.call('POST', `/sandboxes/${ide.sandboxId}/timeout`, { seconds: 1 })
    const deadline = performance.now() + showsWithinMs + 1_000
    while ((await ide.session()).state !== 'paused') {
      if (performance.now() > deadline) throw new Error('the sandbox was not paused 6 s after it was asked')
      await sleep(250)
    }
    await sleep(this.between(5_000, 20_000))
    // A pause ends every call in flight, as E2B's snapshot does; the terminal's stream too.
    if ((this.terminal as SoakTerminal).streaming)
      throw new Error("the terminal's stream outlived its sandbox's pause")
    await this.resume()
    await (this.terminal as SoakTerminal).reattach()
    await (this.watch as SoakWatch).open()
  }

  /** Resumes as the student's page does, for the rest of the day and some. */
  private async resume(): Promise<void> {
    const { ide } = this.o
    await ide.call('POST', `/sandboxes/${ide.sandboxId}/resume`, {
      timeoutSeconds: Math.ceil(this.o.dayMs / 1000) + 900,
    })
    const session = await ide.session()
    if (session.state !== 'running') throw new Error(`resumed, the sandbox is ${session.state}`)
    if (session.processesLost) throw new Error('resumed, the sandbox had lost its processes')
  }
}
