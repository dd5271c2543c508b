import { FitAddon } from '@xterm/addon-fit'
import { Terminal } from '@xterm/xterm'
import '@xterm/xterm/css/xterm.css'
import { useEffect, useRef, useState } from 'react'
import type { SandboxSession } from '../../sandbox/SandboxSession'
import { TerminalConnection, type TerminalStatus } from '../../sandbox/TerminalConnection'
import { useExternalStore } from '../../ui/useExternalStore'
import { terminalThemes } from './terminalThemes'

const encoder = new TextEncoder()

/** Bytes of a binary string from xterm (mouse reports), one byte per char. */
function binaryBytes(data: string): Uint8Array {
  return Uint8Array.from(data, (c) => c.charCodeAt(0) & 0xff)
}

function statusText(status: TerminalStatus): string | undefined {
  switch (status.kind) {
    case 'starting':
      return 'Starting shell…'
    case 'detached':
      return `Reconnecting to the shell: ${status.reason}`
    case 'exited':
      return `The shell ended: ${status.description}`
    case 'failed':
      return `The shell could not start: ${status.reason}`
    default:
      return undefined
  }
}

/** One terminal on a PTY in the sandbox; input is disabled, visibly, while the sandbox is not running. */
export function TerminalView({
  session,
  theme,
  label,
}: {
  session: SandboxSession
  theme: 'light' | 'dark'
  label: string
}) {
  const host = useRef<HTMLDivElement>(null)
  const terminal = useRef<Terminal>(undefined)
  const [status, setStatus] = useState<TerminalStatus>({ kind: 'starting' })
  const [generation, setGeneration] = useState(0)
  const snap = useExternalStore(session)
  const running = snap.state.kind === 'running'

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new generation restarts the shell
  useEffect(() => {
    const element = host.current
    if (!element) return
    const term = new Terminal({
      fontFamily: 'ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace',
      fontSize: 13,
      cursorBlink: true,
      scrollback: 10_000,
      theme: terminalThemes[theme],
    })
    const fit = new FitAddon()
    term.loadAddon(fit)
    term.open(element)
    term.textarea?.setAttribute('aria-label', `${label} input: Escape then Tab moves focus out`)
    // Tab belongs to the shell (completion); Escape then Tab (or Shift+Tab) leaves the terminal,
    // so keyboard users are never trapped. Escape itself still reaches the shell.
    let escapedAt = 0
    term.attachCustomKeyEventHandler((event) => {
      if (event.type !== 'keydown') return true
      if (event.key === 'Escape') escapedAt = event.timeStamp
      else if (event.key === 'Tab' && event.timeStamp - escapedAt < 1500) return false
      else if (event.key !== 'Shift') escapedAt = 0
      return true
    })
    fit.fit()
    terminal.current = term
    const connection = new TerminalConnection(
      session,
      {
        write: (data) => term.write(data),
        notice: (text) => term.write(`\r\n\x1b[2m── ${text} ──\x1b[0m\r\n`),
        status: setStatus,
      },
      { cols: term.cols, rows: term.rows, tag: `ide-terminal:${crypto.randomUUID()}` },
    )
    const inputs = [
      term.onData((data) => connection.write(encoder.encode(data))),
      term.onBinary((data) => connection.write(binaryBytes(data))),
      term.onResize(({ cols, rows }) => connection.resize(cols, rows)),
    ]
    const observer = new ResizeObserver(() => {
      if (element.clientWidth > 0 && element.clientHeight > 0) fit.fit()
    })
    observer.observe(element)
    connection.start()
    return () => {
      observer.disconnect()
      for (const d of inputs) d.dispose()
      connection.dispose()
      term.dispose()
      terminal.current = undefined
    }
  }, [session, generation])

  useEffect(() => {
    if (terminal.current) terminal.current.options.theme = terminalThemes[theme]
  }, [theme])

  useEffect(() => {
    if (terminal.current) terminal.current.options.disableStdin = !running
  }, [running])

  const notice = statusText(status)
  return (
    <section className="terminal" aria-label={label}>
      <div className="terminal-host" ref={host} />
      {!running && snap.state.kind !== 'connecting' && (
        <div className="terminal-overlay" role="status">
          {snap.state.kind === 'paused'
            ? 'Sandbox paused: input is disabled until it resumes'
            : 'Input is disabled until the sandbox is back'}
        </div>
      )}
      {notice && (
        <div className="terminal-status" role="status">
          <span>{notice}</span>
          {(status.kind === 'exited' || status.kind === 'failed') && (
            <button type="button" onClick={() => setGeneration((g) => g + 1)}>
              Restart
            </button>
          )}
        </div>
      )}
    </section>
  )
}
