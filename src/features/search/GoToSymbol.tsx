import './goto.css'
import { Command as Cmdk } from 'cmdk'
import { type ReactNode, useEffect, useState } from 'react'
import type { SymbolHit, SymbolSearch, SymbolSource } from '../../sandbox/language/workspaceSymbols'
import { displayName } from '../../ui/displayName'
import { Icon } from '../../ui/Icon'
import { useExternalStore } from '../../ui/useExternalStore'
import { matchedLetters } from './fuzzyFiles'
import { highlighted } from './highlighted'

interface GoToSymbolProps {
  open: boolean
  onOpenChange(open: boolean): void
  /** The workspace's language servers; undefined where code intelligence is off. */
  symbols: SymbolSource | undefined
  /** The home folder: paths are shown from it. */
  root: string | undefined
  /** Opens a file (absolute path) at a place (lines and columns from 1), or at its start. */
  onOpen(path: string, at: { line: number; column: number } | undefined): void
}

/** LSP's symbol kinds (1 to 26) in words; each has its codicon (`symbol-` and the words joined by `-`). */
const kindNames = [
  'file',
  'module',
  'namespace',
  'package',
  'class',
  'method',
  'property',
  'field',
  'constructor',
  'enum',
  'interface',
  'function',
  'variable',
  'constant',
  'string',
  'number',
  'boolean',
  'array',
  'object',
  'key',
  'null',
  'enum member',
  'struct',
  'event',
  'operator',
  'type parameter',
]

const kindName = (kind: number) => kindNames[kind - 1] ?? 'symbol'
const kindIcon = (kind: number) =>
  kindNames[kind - 1] ? `symbol-${kindName(kind).replace(' ', '-')}` : 'symbol-misc'

/** A search waits for typing to pause this long; each key cancels the one before. */
const debounceMs = 100

/** One row's identity: a symbol is listed once by its file, name, kind and place. */
const keyOf = (hit: SymbolHit) =>
  `${hit.path}\0${hit.name}\0${hit.kind}\0${hit.range ? `${hit.range.start.line}:${hit.range.start.character}` : ''}`

/**
 * Go to Symbol in Workspace (Ctrl+T): what the language servers running in the sandbox know by
 * that name (`workspace/symbol`), asked once typing pauses, the search before cancelled. Each row
 * shows the symbol's kind, its name with the letters typed in bold, and what it is in and its
 * file; Enter opens the file at the symbol's name.
 */
export function GoToSymbol({ open, onOpenChange, symbols, root, onOpen }: GoToSymbolProps) {
  const [query, setQuery] = useState('')
  const [selected, setSelected] = useState('')
  const [found, setFound] = useState<(SymbolSearch & { query: string }) | undefined>()
  const snap = useExternalStore(symbols ?? noServers)
  // A server that starts running while the list is open may know the answer: ask again then.
  const running = snap.servers.filter((s) => s.state.kind === 'running').length

  useEffect(() => {
    if (!open) return
    setQuery('')
    setFound(undefined)
  }, [open])

  // biome-ignore lint/correctness/useExhaustiveDependencies: a server that starts running is a reason to ask again
  useEffect(() => {
    if (!open || !symbols) return
    const typedPast = new AbortController()
    const timer = setTimeout(() => {
      void symbols.search(query, { signal: typedPast.signal }).then((result) => {
        if (!typedPast.signal.aborted) setFound({ ...result, query })
      })
    }, debounceMs)
    return () => {
      clearTimeout(timer)
      typedPast.abort()
    }
  }, [open, symbols, query, running])

  const choose = (hit: SymbolHit) => {
    onOpenChange(false)
    void (symbols?.resolve(hit) ?? Promise.resolve(hit))
      .catch(() => hit)
      .then(({ path, range }) =>
        onOpen(path, range ? { line: range.start.line + 1, column: range.start.character + 1 } : undefined),
      )
  }
  const shownPath = (path: string) =>
    root && path.startsWith(`${root}/`) ? path.slice(root.length + 1) : path

  const starting = snap.servers.some((s) => s.state.kind === 'starting' || s.state.kind === 'restarting')
  let note: ReactNode = null
  if (!symbols || !snap.enabled)
    note = (
      <div className="muted goto-note">
        Code intelligence is off in this workspace: there are no symbols to search.
      </div>
    )
  else if (found?.asked === 0)
    note = starting ? (
      <Cmdk.Loading>The language server is starting…</Cmdk.Loading>
    ) : (
      <div className="muted goto-note">
        No language server is running. Open a file of a language with a server (Python, TypeScript or
        JavaScript) to search its symbols.
      </div>
    )
  else if (!query.trim())
    note = <div className="muted goto-note">Type the name of a function, a class or a variable.</div>
  else if (!found || found.query !== query)
    note = found?.hits.length ? null : <Cmdk.Loading>Searching…</Cmdk.Loading>
  else if (found.hits.length === 0)
    note = <div className="muted goto-note">No matching workspace symbols.</div>

  const hits = query.trim() && found?.asked ? found.hits : []
  return (
    <Cmdk.Dialog
      open={open}
      onOpenChange={onOpenChange}
      label="Go to Symbol in Workspace"
      shouldFilter={false}
      value={selected}
      onValueChange={setSelected}
      contentClassName="palette goto-symbol"
      overlayClassName="palette-overlay"
    >
      <Cmdk.Input
        value={query}
        onValueChange={setQuery}
        placeholder="Search symbols by name"
        aria-label="Symbol name"
      />
      <Cmdk.List>
        {note}
        {hits.map((hit) => {
          const key = keyOf(hit)
          const where = displayName([hit.container, shownPath(hit.path)].filter(Boolean).join(' · '))
          return (
            <Cmdk.Item
              key={key}
              value={key}
              onSelect={() => choose(hit)}
              aria-label={`${hit.name}, ${kindName(hit.kind)}${hit.deprecated ? ', deprecated' : ''}, ${where}`}
            >
              <Icon name={kindIcon(hit.kind)} className="goto-kind" />
              <span className={hit.deprecated ? 'goto-name goto-deprecated' : 'goto-name'}>
                {highlighted(hit.name, matchedLetters(query, hit.name))}
              </span>
              <span className="goto-folder">{where}</span>
            </Cmdk.Item>
          )
        })}
        {found?.truncated && hits.length > 0 && (
          <div className="muted goto-note">
            Only the first {hits.length} symbols are listed: type more of the name.
          </div>
        )}
      </Cmdk.List>
    </Cmdk.Dialog>
  )
}

/** Where code intelligence is off: no servers, ever. */
const noServers = {
  subscribe: () => () => {},
  getSnapshot: () => offSnapshot,
}
const offSnapshot = {
  diagnostics: new Map(),
  errors: 0,
  warnings: 0,
  servers: [],
  problems: [],
  enabled: false,
} satisfies ReturnType<SymbolSource['getSnapshot']>
