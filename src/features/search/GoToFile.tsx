import './goto.css'
import { Command as Cmdk } from 'cmdk'
import { type KeyboardEvent, type ReactNode, useEffect, useMemo, useState } from 'react'
import type { FileListSnapshot } from '../../sandbox/search/WorkspaceFiles'
import type { ExternalStore } from '../../ui/useExternalStore'
import { useExternalStore } from '../../ui/useExternalStore'
import { prepareFiles, rankFiles } from './fuzzyFiles'
import { highlighted } from './highlighted'

/** The workspace's files as Go to File reads them. */
export interface FileListSource extends ExternalStore<FileListSnapshot> {
  /** Lists them if that has not begun. */
  ensure(): void
  /** Lists them again (after a failure). */
  refresh(): void
}

interface GoToFileProps {
  open: boolean
  onOpenChange(open: boolean): void
  files: FileListSource
  /** Files opened recently, most recent first (absolute paths). */
  recent(): readonly string[]
  /** Opens a file (absolute path); `side` when asked with Ctrl+Enter, where the editor has a side to open it in. */
  onOpen(path: string, options: { side: boolean }): void
}

/**
 * Go to File (Ctrl+P): every file of the workspace, matched on each keystroke in the page (no
 * round trip), ranked as VS Code ranks; recently opened files first. Enter opens the file,
 * Ctrl+Enter opens it to the side where the editor has one (else as Enter does).
 */
export function GoToFile({ open, onOpenChange, files, recent, onOpen }: GoToFileProps) {
  const snap = useExternalStore(files)
  const [query, setQuery] = useState('')
  const [selected, setSelected] = useState('')
  const prepared = useMemo(() => prepareFiles(snap.paths), [snap.paths])
  const root = snap.root

  useEffect(() => {
    if (!open) return
    files.ensure()
    setQuery('')
  }, [open, files])

  const recentRelative = useMemo(() => {
    if (!open || !root) return []
    return recent()
      .filter((p) => p.startsWith(`${root}/`))
      .map((p) => p.slice(root.length + 1))
  }, [open, root, recent])
  const results = useMemo(
    () => rankFiles(prepared, query, { recent: recentRelative }),
    [prepared, query, recentRelative],
  )

  const choose = (relative: string, side: boolean) => {
    if (!root) return
    onOpenChange(false)
    onOpen(`${root}/${relative}`, { side })
  }
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey) && selected) {
      event.preventDefault()
      choose(selected, true)
    }
  }

  let note: ReactNode = null
  if (snap.state === 'listing' || snap.state === 'idle')
    note = <Cmdk.Loading>Listing the workspace’s files…</Cmdk.Loading>
  else if (snap.state === 'failed')
    note = (
      <div className="muted goto-note" role="alert">
        The files could not be listed: {snap.error}{' '}
        <button type="button" onClick={() => files.refresh()}>
          Try again
        </button>
      </div>
    )

  return (
    <Cmdk.Dialog
      open={open}
      onOpenChange={onOpenChange}
      label="Go to File"
      shouldFilter={false}
      value={selected}
      onValueChange={setSelected}
      contentClassName="palette goto-file"
      overlayClassName="palette-overlay"
    >
      <Cmdk.Input
        value={query}
        onValueChange={setQuery}
        onKeyDown={onKeyDown}
        placeholder="Search files by name"
        aria-label="File name"
      />
      <Cmdk.List>
        {note}
        {snap.state === 'ready' && (
          <Cmdk.Empty>{query ? 'No matching files.' : 'Type a few letters of a file’s name.'}</Cmdk.Empty>
        )}
        {results.map(({ path, positions, recent: isRecent }) => {
          const slash = path.lastIndexOf('/')
          const name = path.slice(slash + 1)
          const folder = slash === -1 ? '' : path.slice(0, slash)
          return (
            <Cmdk.Item key={path} value={path} onSelect={() => choose(path, false)}>
              <span className="goto-name">{highlighted(name, positions, slash + 1)}</span>
              <span className="goto-folder">{highlighted(folder, positions, 0)}</span>
              {isRecent && <span className="goto-recent">recently opened</span>}
            </Cmdk.Item>
          )
        })}
        {snap.state === 'ready' && snap.truncated && (
          <div className="muted goto-note">
            Only the first {snap.paths.length.toLocaleString('en')} files of the workspace are listed.
          </div>
        )}
        {snap.state === 'ready' && snap.engine === 'find' && (
          <div className="muted goto-note">
            Listed without ripgrep, so .gitignore is not applied: add it with{' '}
            <code>sudo apt-get install ripgrep</code>.
          </div>
        )}
      </Cmdk.List>
    </Cmdk.Dialog>
  )
}
