import { Command as Cmdk } from 'cmdk'
import { useEffect, useState } from 'react'
import type { SandboxSession } from '../../sandbox/SandboxSession'
import { type EntryInfo, FileType } from '../../sandbox/sandboxFiles'
import { displayName } from '../../ui/displayName'
import type { EditorManager } from './EditorManager'

/** Entries shown at most, so a huge folder does not make typing slow. */
const maxEntries = 200

/**
 * File: Open…: type a path (absolute, or relative to the home folder) and press Enter, or pick
 * from the folder's entries as you type; picking a folder goes into it. Picking is also how a
 * name no keyboard can type (a newline in it) is opened.
 */
export function OpenFileDialog({
  open,
  session,
  manager,
  home,
}: {
  open: boolean
  session: SandboxSession
  manager: EditorManager
  /** The home folder's absolute path, the starting point; undefined until known. */
  home: string | undefined
}) {
  const [value, setValue] = useState('')
  const [entries, setEntries] = useState<EntryInfo[]>([])
  const [problem, setProblem] = useState<string>()
  const slash = value.lastIndexOf('/')
  const folder = value.slice(0, slash + 1)
  const prefix = value.slice(slash + 1)

  useEffect(() => {
    if (open) setValue(home ? `${home}/` : '')
  }, [open, home])

  useEffect(() => {
    if (!open) return
    const abort = new AbortController()
    // A short pause, so typing a long path lists one folder, not one per key.
    const timer = setTimeout(() => {
      session.files
        // An empty path is the home folder, as the runtime resolves it.
        .list(folder, 1, abort.signal)
        .then((entries) => {
          setEntries(entries)
          setProblem(undefined)
        })
        .catch((err: unknown) => {
          if (abort.signal.aborted) return
          setEntries([])
          setProblem(err instanceof Error ? err.message : String(err))
        })
    }, 80)
    return () => {
      clearTimeout(timer)
      abort.abort()
    }
  }, [open, folder, session])

  const close = () => manager.setQuickOpen(false)
  const openPath = (path: string) => {
    close()
    void manager.open(path)
  }
  const lower = prefix.toLowerCase()
  const shown = entries
    .filter((e) => e.name.toLowerCase().startsWith(lower))
    .sort(
      (a, b) =>
        Number(b.type === FileType.DIRECTORY) - Number(a.type === FileType.DIRECTORY) ||
        a.name.localeCompare(b.name),
    )
    .slice(0, maxEntries)

  return (
    <Cmdk.Dialog
      open={open}
      onOpenChange={(next) => manager.setQuickOpen(next)}
      label="Open file"
      shouldFilter={false}
      contentClassName="palette"
      overlayClassName="palette-overlay"
    >
      <Cmdk.Input
        value={value}
        onValueChange={setValue}
        placeholder="Path of the file to open"
        aria-label="Path"
      />
      <Cmdk.List>
        {prefix && (
          <Cmdk.Item value={`open:${value}`} onSelect={() => openPath(value)}>
            <span>Open {displayName(value)}</span>
            <kbd>Enter</kbd>
          </Cmdk.Item>
        )}
        {shown.map((entry) => {
          const isFolder = entry.type === FileType.DIRECTORY
          return (
            <Cmdk.Item
              key={entry.path}
              value={`entry:${entry.path}`}
              onSelect={() => (isFolder ? setValue(`${entry.path}/`) : openPath(entry.path))}
            >
              <span>
                {displayName(entry.name)}
                {isFolder ? '/' : ''}
              </span>
            </Cmdk.Item>
          )
        })}
        {problem && <div className="muted open-problem">{problem}</div>}
      </Cmdk.List>
    </Cmdk.Dialog>
  )
}
