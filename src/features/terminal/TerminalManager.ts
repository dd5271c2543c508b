import { DisposableStore, toDisposable } from '../../common/lifecycle'
import { randomId } from '../../common/randomId'
import { Subscribers } from '../../common/Subscribers'
import type { SandboxSession } from '../../sandbox/SandboxSession'
import type { TerminalStatus } from '../../sandbox/TerminalConnection'
import { type NoticeSink, pageNotices, reportErrors } from '../../ui/notifications'
import type { Theme } from '../../ui/themeStore'
import type { TerminalInstance, TerminalInstanceOptions, TerminalRecord } from './TerminalInstance'
import type { TerminalLayout, TerminalMemory } from './terminalMemory'
import { StickyCtrl } from './touchKeys'

type ExitedStatus = Extract<TerminalStatus, { kind: 'exited' }>

/** A tab of the terminal panel: one terminal, or a few side by side. */
export interface TerminalTab {
  id: string
  panes: TerminalInstance[]
}

export interface TerminalsSnapshot {
  tabs: TerminalTab[]
  activeTabId: string | undefined
}

/** Most terminals side by side in one tab. */
const maxPanes = 3

/** What the terminals use of a session: its processes, and whether it runs. */
export type TerminalSession = Pick<SandboxSession, 'processes' | 'getSnapshot' | 'subscribe'>

/** Makes the terminal for a record (xterm and its connection; a fake in tests). */
export type TerminalFactory = (record: TerminalRecord, options: TerminalInstanceOptions) => TerminalInstance

export interface TerminalManagerOptions {
  openTerminal: TerminalFactory
  memory: TerminalMemory
  theme: Theme
  notices?: NoticeSink
}

/** The tag of every process the IDE starts for a terminal, before the terminal's id. */
const terminalTagPrefix = 'ide-terminal:'

/** A process as List gives it: what finding a terminal again needs. */
type RunningProcess = { pid: number; tag?: string; config?: { args: string[] } }

const runTitle = (command: string) => `Run: ${command.length > 40 ? `${command.slice(0, 39)}…` : command}`

/** The command a terminal's process runs (`bash -l -c COMMAND`), or undefined for a shell. */
function commandOf(process: RunningProcess): string | undefined {
  const args = process.config?.args ?? []
  const at = args.indexOf('-c')
  return at >= 0 ? args[at + 1] : undefined
}

/**
 * The terminals of one sandbox: tabs and splits, new shells, processes attached from the process
 * list, and what a reload needs to find them again (tags at Start, found again with List) and to
 * restore their screens (the runtime's replay where it has one, a kept snapshot where not).
 */
export class TerminalManager {
  /** The touch key bar's Ctrl, for whichever terminal takes the next key. */
  readonly ctrl = new StickyCtrl()
  private tabs: { id: string; paneIds: string[] }[] = []
  private readonly instances = new Map<string, TerminalInstance>()
  private activeTabId: string | undefined
  private snapshot: TerminalsSnapshot = { tabs: [], activeTabId: undefined }
  private readonly subscribers = new Subscribers()
  private counter = 0
  private theme: Theme
  private restored = false
  /** A view-only guest's page: terminals show others' output, take no keys, and none is started. */
  private readOnly = false
  private readonly disposables = new DisposableStore()
  private readonly exitListeners = new Set<(terminal: TerminalInstance, status: ExitedStatus) => void>()
  private readonly openTerminal: TerminalFactory
  private readonly memory: TerminalMemory
  private readonly notices: NoticeSink

  constructor(
    private readonly session: TerminalSession,
    { openTerminal, memory, theme, notices = pageNotices }: TerminalManagerOptions,
  ) {
    this.openTerminal = openTerminal
    this.memory = memory
    this.theme = theme
    this.notices = notices
    this.disposables.add(toDisposable(session.subscribe(() => this.onSessionChange())))
    this.onSessionChange()
  }

  subscribe = this.subscribers.add

  getSnapshot = (): TerminalsSnapshot => this.snapshot

  /** Listens to terminals whose process ends; returns a function that stops listening. */
  onExit(listener: (terminal: TerminalInstance, status: ExitedStatus) => void): () => void {
    this.exitListeners.add(listener)
    return () => this.exitListeners.delete(listener)
  }

  /**
   * Opens a new shell in a new tab (or next to the active terminal with `split`); with `command`,
   * a terminal that runs that command instead.
   */
  create({
    split = false,
    cwd,
    command,
  }: {
    split?: boolean
    cwd?: string
    command?: string
  } = {}): TerminalInstance {
    const id = randomId()
    const title = command ? runTitle(command) : `Terminal ${++this.counter}`
    const instance = this.add(
      { id, tag: `${terminalTagPrefix}${id}`, title },
      { ...(cwd ? { cwd } : {}), ...(command ? { command } : {}) },
    )
    this.place(id, split)
    return instance
  }

  /** Makes every terminal take no keys (a view-only share), or take them again. */
  setReadOnly(readOnly: boolean): void {
    this.readOnly = readOnly
    this.onSessionChange()
  }

  /** Opens a terminal on a running PTY process (from the process list). */
  attach(pid: number, title: string): void {
    const existing = [...this.instances.values()].find((t) => t.pid === pid)
    if (existing) {
      this.activate(existing.record.id)
      return
    }
    const id = randomId()
    this.add({ id, title }, { existingPid: pid })
    this.place(id, false)
  }

  /** Closes a terminal; a shell it started is ended, a process it attached to is left running. */
  close(id: string): void {
    const instance = this.instances.get(id)
    if (!instance) return
    const pid = instance.pid
    if (instance.record.tag && pid !== undefined) {
      // Interactive bash ignores SIGTERM, and SendSignal offers nothing gentler: end it for good
      // (a shell that is gone already is what was wanted).
      void reportErrors(
        'Ending the shell failed',
        () => this.session.processes.signal(pid, 'SIGKILL'),
        this.notices,
      )
    }
    instance.dispose()
    this.instances.delete(id)
    for (const tab of this.tabs) tab.paneIds = tab.paneIds.filter((p) => p !== id)
    this.tabs = this.tabs.filter((t) => t.paneIds.length > 0)
    if (!this.tabs.some((t) => t.id === this.activeTabId)) this.activeTabId = this.tabs.at(-1)?.id
    this.changed()
  }

  /** Shows the tab holding terminal (or tab) `id`. */
  activate(id: string): void {
    const tab = this.tabs.find((t) => t.id === id || t.paneIds.includes(id))
    if (!tab) return
    this.activeTabId = tab.id
    this.changed()
    this.instances.get(tab.paneIds[0] ?? '')?.focus()
  }

  /** Moves to the next (1) or previous (-1) tab. */
  cycle(step: 1 | -1): void {
    const index = this.tabs.findIndex((t) => t.id === this.activeTabId)
    const next = this.tabs[(index + step + this.tabs.length) % this.tabs.length]
    if (next) this.activate(next.id)
  }

  /** The terminal the keyboard is in now, if any. */
  get focused(): TerminalInstance | undefined {
    const element = document.activeElement
    for (const instance of this.instances.values())
      if (element && instance.element.contains(element)) return instance
    return undefined
  }

  /** The terminal that has (or last had) focus in the active tab. */
  get active(): TerminalInstance | undefined {
    const tab = this.tabs.find((t) => t.id === this.activeTabId)
    return tab ? this.instances.get(tab.paneIds[0] ?? '') : undefined
  }

  setTheme(theme: Theme): void {
    this.theme = theme
    for (const t of this.instances.values()) t.setTheme(theme)
  }

  /** Keeps the layout and every screen for the next visit (the page is going). */
  keepScreens(): void {
    if (this.restored) this.memory.keep(this.layout(), (id) => this.instances.get(id)?.serialize())
  }

  /** Keeps screens for a reload, and lets go of every terminal (their processes keep running). */
  dispose(): void {
    this.keepScreens()
    this.disposables.dispose()
    for (const t of this.instances.values()) t.dispose()
    this.instances.clear()
    this.subscribers.clear()
  }

  private add(
    record: TerminalRecord,
    options: { existingPid?: number; snapshot?: string; cwd?: string },
  ): TerminalInstance {
    const instance = this.openTerminal(record, { theme: this.theme, ctrl: this.ctrl, ...options })
    instance.setInputEnabled(this.session.getSnapshot().state.kind === 'running' && !this.readOnly)
    let ended = false
    instance.subscribe(() => {
      const { status } = instance.getSnapshot()
      if (status.kind === 'exited' && !ended)
        for (const listener of this.exitListeners) listener(instance, status)
      ended = status.kind === 'exited'
    })
    this.instances.set(record.id, instance)
    return instance
  }

  private place(id: string, split: boolean): void {
    const active = this.tabs.find((t) => t.id === this.activeTabId)
    if (split && active && active.paneIds.length < maxPanes) active.paneIds.push(id)
    else {
      const tab = { id: `tab-${id}`, paneIds: [id] }
      this.tabs.push(tab)
      this.activeTabId = tab.id
    }
    this.changed()
  }

  private onSessionChange(): void {
    const running = this.session.getSnapshot().state.kind === 'running'
    for (const t of this.instances.values()) t.setInputEnabled(running && !this.readOnly)
    if (running && !this.restored) {
      this.restored = true
      void this.restore()
    }
  }

  /**
   * Finds the terminals of the last visit again (tags with List). A browser that never opened this
   * sandbox (another profile, another device) opens the IDE's shells already running there instead
   * of leaving them behind and starting one more; with none, it opens a first one.
   */
  private async restore(): Promise<void> {
    const stored = this.memory.recall()
    let running: RunningProcess[] = []
    try {
      running = await this.session.processes.list()
    } catch {}
    if (!stored) {
      this.adopt(running)
      return
    }
    for (const record of stored.records) {
      const process = running.find((p) => p.tag !== undefined && p.tag === record.tag)
      if (!process) continue
      this.counter = Math.max(this.counter, Number(record.title.match(/^Terminal (\d+)$/)?.[1] ?? 0))
      const screen = stored?.screens[record.id]
      this.add(record, { existingPid: process.pid, ...(screen ? { snapshot: screen } : {}) })
    }
    this.tabs = stored.tabs
      .map((paneIds) => ({ id: `tab-${paneIds[0]}`, paneIds: paneIds.filter((p) => this.instances.has(p)) }))
      .filter((t) => t.paneIds.length > 0)
    this.activeTabId = this.tabs.some((t) => t.id === stored.activeTabId)
      ? stored.activeTabId
      : this.tabs[0]?.id
    if (this.instances.size === 0 && !this.readOnly) this.create()
    else this.changed()
  }

  /** Opens each running terminal the IDE started (by its tag), oldest first, a tab each. */
  private adopt(running: RunningProcess[]): void {
    const ours = running.filter((p) => p.tag?.startsWith(terminalTagPrefix)).sort((a, b) => a.pid - b.pid)
    for (const process of ours) {
      const tag = process.tag as string
      const command = commandOf(process)
      const title = command ? runTitle(command) : `Terminal ${++this.counter}`
      const id = tag.slice(terminalTagPrefix.length) || randomId()
      this.add({ id, tag, title }, { existingPid: process.pid })
      this.tabs.push({ id: `tab-${id}`, paneIds: [id] })
    }
    this.activeTabId = this.tabs[0]?.id
    if (this.instances.size === 0 && !this.readOnly) this.create()
    else this.changed()
  }

  private changed(): void {
    this.snapshot = {
      activeTabId: this.activeTabId,
      tabs: this.tabs.map((t) => ({
        id: t.id,
        panes: t.paneIds.map((p) => this.instances.get(p)).filter((p): p is TerminalInstance => !!p),
      })),
    }
    if (this.restored) this.memory.keep(this.layout())
    this.subscribers.notify()
  }

  /** The terminals a reload can find again (those it started, by tag), as laid out now. */
  private layout(): TerminalLayout {
    const tagged = (id: string) => !!this.instances.get(id)?.record.tag
    return {
      records: [...this.instances.values()].filter((t) => t.record.tag).map((t) => t.record),
      tabs: this.tabs.map((t) => t.paneIds.filter(tagged)),
      ...(this.activeTabId ? { activeTabId: this.activeTabId } : {}),
    }
  }
}
