// The terminals' tabs, splits, reloads and process ends against fakes: a session whose process
// list the test sets, terminals that only record what they are told, storage in a Map.
import { describe, expect, it, vi } from 'vitest'
import { Subscribers } from '../../common/Subscribers'
import type { SessionSnapshot } from '../../sandbox/SandboxSession'
import type { SandboxProcesses } from '../../sandbox/sandboxProcesses'
import type { TerminalStatus } from '../../sandbox/TerminalConnection'
import type { TerminalInstance, TerminalInstanceOptions, TerminalRecord } from './TerminalInstance'
import { TerminalManager } from './TerminalManager'
import { TerminalMemory } from './terminalMemory'

let nextPid = 100

/** A terminal that starts no xterm and no process: it remembers what it was asked. */
class FakeTerminal {
  readonly pid: number
  inputEnabled = false
  disposed = false
  focused = 0
  private status: TerminalStatus = { kind: 'starting' }
  private readonly subscribers = new Subscribers()

  constructor(
    readonly record: TerminalRecord,
    readonly options: TerminalInstanceOptions,
  ) {
    this.pid = options.existingPid ?? nextPid++
  }
  subscribe = this.subscribers.add
  getSnapshot = () => ({ status: this.status, title: this.record.title })
  setInputEnabled(enabled: boolean) {
    this.inputEnabled = enabled
  }
  setTheme() {}
  focus() {
    this.focused++
  }
  serialize() {
    return `screen of ${this.record.title}`
  }
  dispose() {
    this.disposed = true
  }
  /** The process ends. */
  exit(exitCode: number) {
    this.status = { kind: 'exited', exitCode } as TerminalStatus
    this.subscribers.notify()
  }
}

class MapStorage {
  readonly items = new Map<string, string>()
  full = false
  getItem(key: string) {
    return this.items.get(key) ?? null
  }
  setItem(key: string, value: string) {
    if (this.full && value.includes('screen of')) throw new DOMException('quota', 'QuotaExceededError')
    this.items.set(key, value)
  }
}

/** A running sandbox whose processes are `running` (as List gives them), and what it was signalled. */
function fakeSandbox({
  running = [] as { pid: number; tag?: string; config?: { args: string[] } }[],
  storage = new MapStorage(),
} = {}) {
  const sessionSubscribers = new Subscribers()
  let state: SessionSnapshot['state'] = { kind: 'running' }
  const signals: [number, string][] = []
  const processes = {
    list: async () => running,
    signal: async (pid: number, signal: string) => {
      signals.push([pid, signal])
    },
  } as unknown as SandboxProcesses
  const session = {
    processes,
    getSnapshot: () => ({ state }) as SessionSnapshot,
    subscribe: sessionSubscribers.add,
  }
  const terminals: FakeTerminal[] = []
  const memory = new TerminalMemory(storage, 'terminals')
  const open = () =>
    new TerminalManager(session, {
      memory,
      theme: 'dark',
      notices: { push: () => {} },
      openTerminal: (record, options) => {
        const terminal = new FakeTerminal(record, options)
        terminals.push(terminal)
        return terminal as unknown as TerminalInstance
      },
    })
  return {
    open,
    terminals,
    signals,
    storage,
    memory,
    setState(next: SessionSnapshot['state']) {
      state = next
      sessionSubscribers.notify()
    },
  }
}

const titles = (manager: TerminalManager) =>
  manager.getSnapshot().tabs.map((t) => t.panes.map((p) => p.record.title))

describe('TerminalManager', () => {
  it('opens a first shell once the sandbox runs, tagged so a reload can find it', async () => {
    const sandbox = fakeSandbox()
    sandbox.setState({ kind: 'paused', processesLost: false })
    const manager = sandbox.open()
    expect(titles(manager)).toEqual([])
    sandbox.setState({ kind: 'running' })
    await vi.waitFor(() => expect(titles(manager)).toEqual([['Terminal 1']]))
    const [first] = sandbox.terminals
    expect(first?.record.tag).toBe(`ide-terminal:${first?.record.id}`)
    expect(first?.inputEnabled).toBe(true)
    expect(sandbox.memory.recall()?.records).toEqual([first?.record])
    sandbox.setState({ kind: 'paused', processesLost: false })
    expect(first?.inputEnabled).toBe(false)
  })

  it('finds the terminals of the last visit again by their tags, with their screens and tabs', async () => {
    const storage = new MapStorage()
    const records = [1, 2, 3].map((n) => ({ id: `t${n}`, tag: `ide-terminal:t${n}`, title: `Terminal ${n}` }))
    storage.setItem(
      'terminals',
      JSON.stringify({
        records,
        tabs: [['t1', 't2'], ['t3']],
        activeTabId: 'tab-t3',
        screens: { t2: 'old screen' },
      }),
    )
    // Terminal 1's shell ended while the page was away.
    const sandbox = fakeSandbox({
      storage,
      running: [
        { pid: 7, tag: 'ide-terminal:t2' },
        { pid: 8, tag: 'ide-terminal:t3' },
      ],
    })
    const manager = sandbox.open()
    await vi.waitFor(() => expect(titles(manager)).toEqual([['Terminal 2'], ['Terminal 3']]))
    expect(manager.getSnapshot().activeTabId).toBe('tab-t3')
    expect(sandbox.terminals.map((t) => [t.pid, t.options.snapshot])).toEqual([
      [7, 'old screen'],
      [8, undefined],
    ])
    manager.create()
    expect(titles(manager).at(-1)).toEqual(['Terminal 4'])
  })

  it('in a browser that never opened the sandbox, opens the IDE shells running there instead of one more', async () => {
    const sandbox = fakeSandbox({
      running: [
        { pid: 30, tag: 'ide-terminal:b', config: { args: ['-l', '-c', 'npm run dev'] } },
        { pid: 20, tag: 'ide-terminal:a', config: { args: ['-l'] } },
        { pid: 25, tag: 'ide-port-owners' },
        { pid: 26 },
      ],
    })
    const manager = sandbox.open()
    await vi.waitFor(() => expect(titles(manager)).toEqual([['Terminal 1'], ['Run: npm run dev']]))
    expect(sandbox.terminals.map((t) => [t.pid, t.record.tag])).toEqual([
      [20, 'ide-terminal:a'],
      [30, 'ide-terminal:b'],
    ])
    expect(manager.getSnapshot().activeTabId).toBe('tab-a')
    expect(sandbox.memory.recall()?.records.map((r) => r.id)).toEqual(['a', 'b'])
    manager.create()
    expect(titles(manager).at(-1)).toEqual(['Terminal 2'])
  })

  it('keeps to its own layout once it has one, even with other shells running', async () => {
    const storage = new MapStorage()
    storage.setItem('terminals', JSON.stringify({ records: [], tabs: [], screens: {} }))
    const sandbox = fakeSandbox({ storage, running: [{ pid: 20, tag: 'ide-terminal:a' }] })
    const manager = sandbox.open()
    await vi.waitFor(() => expect(titles(manager)).toEqual([['Terminal 1']]))
    expect(sandbox.terminals[0]?.pid).not.toBe(20)
  })

  it('splits up to three side by side, then opens a new tab', async () => {
    const sandbox = fakeSandbox()
    const manager = sandbox.open()
    await vi.waitFor(() => expect(titles(manager)).toHaveLength(1))
    manager.create({ split: true })
    manager.create({ split: true })
    manager.create({ split: true })
    expect(titles(manager)).toEqual([['Terminal 1', 'Terminal 2', 'Terminal 3'], ['Terminal 4']])
    expect(manager.getSnapshot().activeTabId).toBe(manager.getSnapshot().tabs[1]?.id)
    manager.cycle(1)
    expect(manager.active?.record.title).toBe('Terminal 1')
  })

  it('ends a shell it started when its terminal closes, and leaves an attached process running', async () => {
    const sandbox = fakeSandbox()
    const manager = sandbox.open()
    await vi.waitFor(() => expect(titles(manager)).toHaveLength(1))
    manager.attach(42, 'python3 app.py')
    manager.attach(42, 'python3 app.py')
    expect(titles(manager)).toEqual([['Terminal 1'], ['python3 app.py']])
    const [shell, attached] = sandbox.terminals
    manager.close(attached?.record.id ?? '')
    manager.close(shell?.record.id ?? '')
    await vi.waitFor(() => expect(sandbox.signals).toEqual([[shell?.pid, 'SIGKILL']]))
    expect([shell?.disposed, attached?.disposed]).toEqual([true, true])
    expect(manager.getSnapshot()).toEqual({ tabs: [], activeTabId: undefined })
  })

  it('tells listeners once when a terminal’s process ends', async () => {
    const sandbox = fakeSandbox()
    const manager = sandbox.open()
    await vi.waitFor(() => expect(titles(manager)).toHaveLength(1))
    const ended = vi.fn()
    manager.onExit(ended)
    sandbox.terminals[0]?.exit(3)
    sandbox.terminals[0]?.exit(3)
    expect(ended).toHaveBeenCalledTimes(1)
    expect(ended.mock.calls[0]?.[1]).toMatchObject({ kind: 'exited', exitCode: 3 })
  })

  it('keeps screens when the page goes, and the terminals without screens when storage is full', async () => {
    const sandbox = fakeSandbox()
    const manager = sandbox.open()
    await vi.waitFor(() => expect(titles(manager)).toHaveLength(1))
    const id = sandbox.terminals[0]?.record.id ?? ''
    manager.keepScreens()
    expect(sandbox.memory.recall()?.screens).toEqual({ [id]: 'screen of Terminal 1' })
    manager.create()
    expect(sandbox.memory.recall()?.screens).toEqual({ [id]: 'screen of Terminal 1' })
    sandbox.storage.full = true
    manager.dispose()
    expect(sandbox.memory.recall()?.records).toHaveLength(2)
    expect(sandbox.memory.recall()?.screens).toEqual({})
    expect(sandbox.terminals.every((t) => t.disposed)).toBe(true)
  })
})
