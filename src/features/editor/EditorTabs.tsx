import type { KeyboardEvent } from 'react'
import type { ChangeLetter } from '../../sandbox/git/gitStatus'
import { displayName } from '../../ui/displayName'
import { Icon } from '../../ui/Icon'
import { IconButton } from '../../ui/IconButton'
import type { EditorManager } from './EditorManager'
import type { EditorDocument } from './OpenDocument'

/** The id of a document's tab, for aria-controls / aria-labelledby. */
export const tabId = (doc: { id: string }) => `${doc.id}-tab`

/** What a tab says of a file git sees changed (its colour says it to the eye). */
const changeWords: Record<ChangeLetter, string> = {
  M: 'modified',
  A: 'added',
  D: 'deleted',
  R: 'renamed',
  C: 'copied',
  T: 'type changed',
  U: 'in conflict',
  '?': 'untracked',
}

/** One tab per open file: its name (coloured when git sees it changed), a dot while it has unsaved changes, a close button. */
export function EditorTabs({
  documents,
  activeId,
  manager,
  changes,
}: {
  documents: EditorDocument[]
  activeId: string | undefined
  manager: EditorManager
  /** Files git sees changed, by path (source control's decorations). */
  changes?: ReadonlyMap<string, ChangeLetter> | undefined
}) {
  const onKeyDown = (event: KeyboardEvent) => {
    const moves: Record<string, number> = { ArrowRight: 1, ArrowLeft: -1 }
    const delta = moves[event.key]
    if (delta !== undefined) {
      event.preventDefault()
      manager.cycle(delta)
      // Roving focus follows the selection, as a tablist should.
      requestAnimationFrame(() =>
        document.querySelector<HTMLElement>('.editor-tabs [aria-selected="true"]')?.focus(),
      )
    } else if (event.key === 'Delete' && activeId) {
      manager.requestClose(activeId)
    }
  }
  return (
    <div className="panel-header editor-tabs">
      <div role="tablist" aria-label="Open files" className="tablist" onKeyDown={onKeyDown}>
        {documents.map((doc) => {
          const name = displayName(doc.name)
          const active = doc.id === activeId
          const change = changes?.get(doc.path)
          return (
            <div
              key={doc.id}
              className="tab"
              data-active={active}
              data-dirty={doc.dirty}
              data-deleted={doc.deletedOnDisk}
              data-git={change}
            >
              <button
                type="button"
                role="tab"
                id={tabId(doc)}
                aria-selected={active}
                aria-controls={`${doc.id}-panel`}
                tabIndex={active ? 0 : -1}
                aria-keyshortcuts="Delete"
                aria-describedby={doc.others.length > 0 ? `${tabId(doc)}-people` : undefined}
                title={displayName(doc.path)}
                onClick={() => manager.activate(doc.id)}
                onAuxClick={(e) => {
                  if (e.button === 1) manager.requestClose(doc.id)
                }}
              >
                {name}
                {doc.dirty && (
                  <>
                    <span className="dirty-dot" aria-hidden="true">
                      <Icon name="circle-filled" />
                    </span>
                    <span className="visually-hidden"> (unsaved)</span>
                  </>
                )}
                {doc.deletedOnDisk && <span className="visually-hidden"> (deleted on disk)</span>}
                {change && <span className="visually-hidden"> ({changeWords[change]})</span>}
                {doc.others.length > 0 && (
                  <span className="tab-people" aria-hidden="true">
                    {doc.others.map((person) => (
                      <span
                        key={`${person.name}${person.color}`}
                        className="tab-person"
                        style={{ background: person.color }}
                      />
                    ))}
                  </span>
                )}
              </button>
              {doc.others.length > 0 && (
                <span className="visually-hidden" id={`${tabId(doc)}-people`}>
                  Also open by {doc.others.map((p) => p.name).join(', ')}
                </span>
              )}
              {/* For the mouse: a tablist holds tabs only, so the keyboard closes a tab with Delete. */}
              <IconButton
                icon="close"
                label={`Close ${name} (Delete)`}
                mouseOnly
                onClick={() => manager.requestClose(doc.id)}
              />
            </div>
          )
        })}
      </div>
    </div>
  )
}
