import { FitAddon } from '@xterm/addon-fit'
import { Terminal } from '@xterm/xterm'
import { DisposableStore, toDisposable } from '../../common/lifecycle'
import { Subscribers } from '../../common/Subscribers'
import type { OutputWindowPolicy } from '../../sandbox/outputWindow'
import type { SandboxSession } from '../../sandbox/SandboxSession'
import { TerminalConnection, type TerminalStatus } from '../../sandbox/TerminalConnection'
import type { Theme } from '../../ui/themeStore'
import { EchoTimer } from './echoTimer'
import { holdShellKeysInFullscreen } from './holdShellKeysInFullscreen'
import { OutputWriter } from './outputWriter'
import { PredictiveEcho } from './predictiveEcho'
import { TerminalTextMirror } from './TerminalTextMirror'
import { TerminalAddons } from './terminalAddons'
import { TerminalClipboard } from './terminalClipboard'
import { predictAboveMs, type TerminalSettingsSource } from './terminalSettings'
import { terminalThemes } from './terminalThemes'
import { type StickyCtrl, type TouchKey, touchKeySequence, withCtrl } from './touchKeys'
import { xtermPredictionScreen } from './xtermPredictionScreen'

const encoder = new TextEncoder()

/** What identifies a terminal across reloads (kept in localStorage, never a secret). */
export interface TerminalRecord {
  id: string
  /** The tag its shell was started with; absent for a process attached from the process list. */
  tag?: string
  title: string
}

/** What React renders about a terminal. */
export interface TerminalSnapshot {
  status: TerminalStatus
  /** The window title the program set (OSC 0/2), or the terminal's own name. */
  title: string
  /** Find is open: a counter that changes with each request for it, and the text to start with. */
  find?: { request: number; initial: string }
  /** Typed keys are drawn before the sandbox echoes them (the setting, and the round trip for auto). */
  predicting?: boolean
  /** The median round trip of a typed key to its echo, in ms, once keys were typed. */
  echoMs?: number
}

export interface TerminalInstanceOptions {
  theme: Theme
  /** Attach to this process instead of starting a shell. */
  existingPid?: number
  /** Screen kept from before a reload, shown when the runtime cannot replay its output. */
  snapshot?: string
  cwd?: string
  /** Runs this shell command instead of an interactive shell. */
  command?: string
  /** What sizes the output window (a bench compares a fixed one). */
  outputWindow?: OutputWindowPolicy
  /** The touch key bar's Ctrl, shared by the panel's terminals: the next key typed takes it. */
  ctrl?: StickyCtrl
  /** This person typed into the terminal of process `pid` (the others see who is typing where). */
  typed?: (pid: number) => void
}

/** Bytes of a binary string from xterm (mouse reports), one byte per char. */
function binaryBytes(data: string): Uint8Array {
  return Uint8Array.from(data, (c) => c.charCodeAt(0) & 0xff)
}

/**
 * One terminal for as long as its tab exists: the xterm instance (opened once into a container
 * that views adopt, so hiding a panel or switching tabs never loses the screen), its connection
 * to a PTY process, and the output writer between them.
 */
export class TerminalInstance {
  /** What `dispose` tears down, last made first. */
  private readonly disposables = new DisposableStore()
  readonly element = document.createElement('div')
  readonly term: Terminal
  readonly fit = new FitAddon()
  readonly addons: TerminalAddons
  private readonly clipboard: TerminalClipboard
  private findRequests = 0
  private readonly writer: OutputWriter
  /**
   * The output being parsed is the past, replayed at an attach (or the kept screen shown in its
   * place), until the write that reaches `pastEndsAt` (absolute) is parsed.
   */
  private inPast = false
  private pastEndsAt = 0
  private readonly echo = new EchoTimer((echoMs) => this.update({ echoMs, predicting: this.predicting() }))
  private readonly prediction: PredictiveEcho
  private connection: TerminalConnection
  private snapshot: TerminalSnapshot
  private readonly subscribers = new Subscribers()
  private readonly resizeObserver: ResizeObserver
  private host: HTMLElement | undefined

  constructor(
    private readonly session: SandboxSession,
    readonly record: TerminalRecord,
    private readonly options: TerminalInstanceOptions,
    private readonly settings: TerminalSettingsSource,
    /** Opens a printed link that was clicked. */
    openLink: (uri: string) => void,
  ) {
    this.element.className = 'terminal-screen'
    this.disposables.add(toDisposable(() => this.element.remove()))
    this.disposables.add(toDisposable(holdShellKeysInFullscreen()))
    this.term = this.disposables.add(
      new Terminal({
        fontFamily: 'ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace',
        fontSize: 13,
        // A steady cursor, as VS Code's default: xterm's DOM renderer blinks with a CSS animation that
        // keeps a software-composited page drawing frames, which delays every echo by ~6 ms.
        cursorBlink: false,
        scrollback: settings.getState().scrollback,
        allowProposedApi: true,
        theme: terminalThemes[options.theme],
        screenReaderMode: settings.getState().screenReaderMode,
      }),
    )
    this.term.loadAddon(this.fit)
    this.term.open(this.element)
    this.term.textarea?.setAttribute('aria-label', `${record.title} input: Escape then Tab moves focus out`)
    this.addons = this.disposables.add(new TerminalAddons(this.term, this.element, openLink))
    this.clipboard = this.disposables.add(
      new TerminalClipboard(this.term, this.element, () => settings.getState().copyOnSelect),
    )
    const mirror = TerminalTextMirror.forTests(this.term, this.element)
    if (mirror) this.disposables.add(mirror)
    this.disposables.add(
      toDisposable(
        settings.subscribe((s) => {
          this.term.options.screenReaderMode = s.screenReaderMode
          this.term.options.scrollback = s.scrollback
          if (this.snapshot.predicting !== this.predicting()) this.update({ predicting: this.predicting() })
        }),
      ),
    )
    this.bindKeys()
    // Questions in output replayed at an attach (where is the cursor, what terminal is this) were
    // answered when they were asked; answering them again types the answer into today's prompt.
    // The past ends where the runtime says it does (X-Replay-End), or with the first key typed.
    const replaying = () => this.inPast
    this.term.onKey(() => {
      this.inPast = false
    })
    this.term.parser.registerCsiHandler({ final: 'n' }, replaying)
    this.term.parser.registerCsiHandler({ final: 'c' }, replaying)
    this.term.parser.registerCsiHandler({ prefix: '>', final: 'c' }, replaying)
    this.writer = this.disposables.add(
      new OutputWriter((data, parsed) => this.term.write(this.prediction.output(data), parsed)),
    )
    this.prediction = this.disposables.add(
      new PredictiveEcho(xtermPredictionScreen(this.term, this.writer.idle), {
        enabled: () => this.predicting(),
      }),
    )
    this.snapshot = { status: { kind: 'starting' }, title: record.title }
    this.term.onTitleChange((title) => this.update({ title: title || this.record.title }))
    this.term.onData((typed) => {
      const data = this.options.ctrl?.take() ? withCtrl(typed) : typed
      this.echo.sent(data)
      this.prediction.input(data)
      this.connection.write(encoder.encode(data))
      if (this.pid !== undefined) this.options.typed?.(this.pid)
    })
    this.term.onBinary((data) => this.connection.write(binaryBytes(data)))
    this.term.onResize(({ cols, rows }) => {
      this.prediction.reset()
      this.connection.resize(cols, rows)
    })
    this.resizeObserver = new ResizeObserver(() => this.fitToHost())
    this.disposables.add(toDisposable(() => this.resizeObserver.disconnect()))
    this.connection = this.connect(options.existingPid, options.snapshot)
    // Whichever connection it has then: a restart replaces it.
    this.disposables.add(toDisposable(() => this.connection.dispose()))
  }

  subscribe = this.subscribers.add

  getSnapshot = (): TerminalSnapshot => this.snapshot

  /** The shell command it runs, where it runs one instead of an interactive shell. */
  get command(): string | undefined {
    return this.options.command
  }

  /** The pid of its process, once known. */
  get pid(): number | undefined {
    return this.connection.processId
  }

  /** Shows the terminal inside `host` (a view mounting). */
  attachTo(host: HTMLElement): void {
    this.host = host
    host.appendChild(this.element)
    this.resizeObserver.observe(host)
    this.fitToHost()
    this.addons.attach(host)
  }

  /** Takes the terminal out of its view (the view unmounting); the process and screen stay. */
  detach(): void {
    if (this.host) this.resizeObserver.unobserve(this.host)
    this.addons.detach()
    this.element.remove()
    this.host = undefined
  }

  /** Sends a key the touch key bar offers, as if typed on a keyboard that has it. */
  pressKey(key: TouchKey): void {
    const ctrl = this.options.ctrl?.take() ?? false
    const applicationCursor = this.term.modes.applicationCursorKeysMode
    this.term.input(touchKeySequence(key, { applicationCursor, ctrl }), true)
  }

  focus(): void {
    this.term.focus()
  }

  /** Opens find (or brings focus back to it), starting from a short one-line selection. */
  openFind(): void {
    const selection = this.term.getSelection()
    const initial = selection.length < 200 && !selection.includes('\n') ? selection : ''
    this.update({ find: { request: ++this.findRequests, initial } })
  }

  /** Closes find and gives the keyboard back to the terminal. */
  closeFind(): void {
    this.update({ find: undefined })
    this.term.focus()
  }

  setTheme(theme: Theme): void {
    this.term.options.theme = terminalThemes[theme]
  }

  /** Input is refused (visibly, by the view) while the sandbox is not running. */
  setInputEnabled(enabled: boolean): void {
    this.term.options.disableStdin = !enabled
  }

  /** Starts a new shell in this terminal after its process ended. */
  restart(): void {
    this.connection.dispose()
    this.term.write('\r\n')
    this.connection = this.connect(undefined, undefined)
  }

  /** The screen and some scrollback as escape sequences, to restore after a reload. */
  serialize(): string | undefined {
    return this.addons.serialize(1000)
  }

  /** Ends the terminal; its process keeps running (closing a tab kills it first, see the manager). */
  dispose(): void {
    this.disposables.dispose()
    this.subscribers.clear()
  }

  private connect(existingPid: number | undefined, snapshot: string | undefined): TerminalConnection {
    const connection = new TerminalConnection(
      this.session,
      {
        write: (data, end, parsed) => {
          this.echo.received()
          this.writer.push(data, end, () => {
            if (end >= this.pastEndsAt) this.inPast = false
            parsed?.()
          })
        },
        skip: (offset) => {
          this.writer.skipBefore(offset)
          // The past's tail may be skipped, never written: it ends once what was written is parsed.
          if (this.inPast && offset >= this.pastEndsAt)
            this.term.write('', () => {
              this.inPast = false
            })
        },
        room: () => this.writer.room(),
        notice: (text) => this.writer.push(encoder.encode(`\r\n\x1b[2m── ${text} ──\x1b[0m\r\n`)),
        status: (status) => this.update({ status }),
      },
      {
        cols: this.term.cols,
        rows: this.term.rows,
        tag: this.record.tag ?? `ide-terminal:${this.record.id}`,
        ...(existingPid !== undefined ? { existingPid } : {}),
        ...(this.options.cwd ? { cwd: this.options.cwd } : {}),
        ...(this.options.command ? { command: this.options.command } : {}),
        ...(this.options.outputWindow ? { outputWindow: this.options.outputWindow } : {}),
      },
    )
    // A runtime without replay (E2B's envd) sends nothing of the past: show the kept screen instead.
    connection.onReplay = (support, replay) => {
      if (replay && replay.end > replay.start) {
        this.inPast = true
        this.pastEndsAt = replay.end
      } else if (support === 'none' && snapshot) {
        this.inPast = true
        this.term.write(snapshot, () => {
          this.inPast = false
        })
      }
    }
    // Nothing is parsed before the terminal's character widths are the shell's.
    void this.addons.widths.then(() => {
      if (this.connection === connection) connection.start()
    })
    return connection
  }

  /** xterm takes one key handler: tab-out first (it watches every key), then clipboard and find keys. */
  private bindKeys(): void {
    const tabOut = this.tabOutKeys()
    this.term.attachCustomKeyEventHandler(
      (event) => tabOut(event) && this.clipboard.handleKey(event) && this.findKey(event),
    )
  }

  /** Tab goes to the shell; Escape then Tab (or Shift+Tab) leaves the terminal. */
  private tabOutKeys(): (event: KeyboardEvent) => boolean {
    let escapedAt = Number.NEGATIVE_INFINITY
    return (event) => {
      if (event.type !== 'keydown') return true
      if (event.key === 'Escape') escapedAt = event.timeStamp
      else if (event.key === 'Tab' && event.timeStamp - escapedAt < 1500) return false
      else if (event.key !== 'Shift') escapedAt = Number.NEGATIVE_INFINITY
      return true
    }
  }

  /** Ctrl/Cmd+Shift+F opens find. */
  private findKey(event: KeyboardEvent): boolean {
    if (event.type !== 'keydown' || !(event.ctrlKey || event.metaKey) || !event.shiftKey) return true
    if (event.code !== 'KeyF') return true
    event.preventDefault()
    this.openFind()
    return false
  }

  /**
   * Whether typed keys are drawn before their echo: by the setting; for auto, a sandbox across a
   * network (not the local stack on this machine, whose delays are the machine's own) with a
   * round trip above the threshold.
   */
  private predicting(): boolean {
    const mode = this.settings.getState().predictiveEcho
    if (mode !== 'auto') return mode === 'always'
    return !this.session.onThisMachine && (this.echo.median ?? 0) > predictAboveMs
  }

  private fitToHost(): void {
    if (this.host && this.host.clientWidth > 0 && this.host.clientHeight > 0) this.fit.fit()
  }

  private update(patch: Partial<TerminalSnapshot>): void {
    this.snapshot = { ...this.snapshot, ...patch }
    this.subscribers.notify()
  }
}
