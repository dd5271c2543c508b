import '@xterm/xterm/css/xterm.css'
import { Suspense } from 'react'
import type { SandboxSession } from '../../sandbox/SandboxSession'
import { IconButton } from '../../ui/IconButton'
import { lazyNamed } from '../../ui/lazyNamed'
import { useExternalStore } from '../../ui/useExternalStore'
import { touchFirst, useMediaQuery } from '../../ui/useMediaQuery'
import type { TerminalManager } from './TerminalManager'
import { TerminalPane } from './TerminalPane'

// Only touch screens show the key bar.
const TerminalKeyBar = lazyNamed(() => import('./TerminalKeyBar'), 'TerminalKeyBar')

/** Terminal tabs under the editor; each tab holds one terminal or a few side by side. */
export function TerminalPanel({ session, manager }: { session: SandboxSession; manager: TerminalManager }) {
  const { tabs, activeTabId } = useExternalStore(manager)
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
                  onKeyDown={(e) => {
                    if (e.key === 'ArrowRight') manager.cycle(1)
                    if (e.key === 'ArrowLeft') manager.cycle(-1)
                    if (e.key === 'Delete') close()
                  }}
                >
                  {name}
                </button>
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
