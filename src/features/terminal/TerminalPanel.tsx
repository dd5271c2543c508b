import '@xterm/xterm/css/xterm.css'
import { Suspense, useEffect, useState } from 'react'
import type { Presence } from '../../sandbox/collab/Presence'
import type { SandboxSession } from '../../sandbox/SandboxSession'
import { IconButton } from '../../ui/IconButton'
import { lazyNamed } from '../../ui/lazyNamed'
import { useExternalStore } from '../../ui/useExternalStore'
import { touchFirst, useMediaQuery } from '../../ui/useMediaQuery'
import type { TerminalManager } from './TerminalManager'
import { TerminalPane } from './TerminalPane'

// Only touch screens show the key bar.
const TerminalKeyBar = lazyNamed(() => import('./TerminalKeyBar'), 'TerminalKeyBar')

/** Who of the others types into which terminal (by process), as presence says; re-rendered as it changes. */
function useTypists(
  presence: Presence | undefined,
): (pid: number | undefined) => { name: string; color: string }[] {
  const [, setVersion] = useState(0)
  useEffect(() => presence?.onChange(() => setVersion((v) => v + 1)), [presence])
  return (pid) => (presence && pid !== undefined ? presence.typingIn(pid) : [])
}

/** Terminal tabs under the editor; each tab holds one terminal or a few side by side. */
export function TerminalPanel({
  session,
  manager,
  presence,
}: {
  session: SandboxSession
  manager: TerminalManager
  /** The others on the sandbox, whose typing the tabs show (with co-editing). */
  presence?: Presence | undefined
}) {
  const { tabs, activeTabId } = useExternalStore(manager)
  const typists = useTypists(presence)
  const touch = useMediaQuery(touchFirst)
  return (
    <div className="panel terminal-panel">
      <div className="panel-header terminal-tabs">
        <div role="tablist" aria-label="Terminals" className="tablist">
          {tabs.map((tab) => {
            const first = tab.panes[0]
            const name = tab.panes.map((p) => p.record.title).join(' | ')
            const close = () => {
              for (const pane of tab.panes) manager.close(pane.record.id)
            }
            const typing = tab.panes.flatMap((pane) => typists(pane.pid))
            return (
              <div key={tab.id} className="tab" data-active={tab.id === activeTabId}>
                <button
                  type="button"
                  role="tab"
                  id={tab.id}
                  aria-selected={tab.id === activeTabId}
                  aria-controls={`${tab.id}-panel`}
                  tabIndex={tab.id === activeTabId ? 0 : -1}
                  onClick={() => manager.activate(tab.id)}
                  aria-keyshortcuts="Delete"
                  aria-describedby={typing.length > 0 ? `${tab.id}-typing` : undefined}
                  onKeyDown={(e) => {
                    if (e.key === 'ArrowRight') manager.cycle(1)
                    if (e.key === 'ArrowLeft') manager.cycle(-1)
                    if (e.key === 'Delete') close()
                  }}
                >
                  {name}
                  {typing.length > 0 && (
                    <span className="tab-people" aria-hidden="true">
                      {typing.map((person) => (
                        <span
                          key={person.name + person.color}
                          className="tab-person"
                          style={{ background: person.color }}
                        />
                      ))}
                    </span>
                  )}
                </button>
                {typing.length > 0 && (
                  <span className="visually-hidden" id={`${tab.id}-typing`}>
                    {typing.map((p) => p.name).join(', ')} typing
                  </span>
                )}
                {/* For the mouse: a tablist holds tabs only, so the keyboard closes a tab with Delete. */}
                {first && (
                  <IconButton icon="close" label={`Close ${name} (Delete)`} mouseOnly onClick={close} />
                )}
              </div>
            )
          })}
        </div>
        <div className="tab-actions">
          <IconButton icon="add" label="New terminal" onClick={() => manager.create()} />
          <IconButton
            icon="split-horizontal"
            label="Split terminal"
            onClick={() => manager.create({ split: true })}
          />
        </div>
      </div>
      {tabs.map((tab) => (
        <div
          key={tab.id}
          id={`${tab.id}-panel`}
          role="tabpanel"
          aria-labelledby={tab.id}
          className="terminal-panes"
          hidden={tab.id !== activeTabId}
        >
          {tab.panes.map((pane) => (
            <TerminalPane key={pane.record.id} instance={pane} session={session} />
          ))}
        </div>
      ))}
      {touch && tabs.length > 0 && (
        <Suspense fallback={null}>
          <TerminalKeyBar ctrl={manager.ctrl} target={() => manager.focused ?? manager.active} />
        </Suspense>
      )}
    </div>
  )
}
