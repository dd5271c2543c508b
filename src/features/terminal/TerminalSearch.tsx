import type { ISearchOptions, SearchAddon } from '@xterm/addon-search'
import { useEffect, useRef, useState } from 'react'
import { IconButton } from '../../ui/IconButton'

/** Highlights for every match and the current one; the search addon reports counts only with these. */
const options: ISearchOptions = {
  decorations: {
    matchBorder: '#d18616',
    matchOverviewRuler: '#d18616',
    activeMatchBorder: '#e5534b',
    activeMatchBackground: '#9e6a03',
    activeMatchColorOverviewRuler: '#e5534b',
  },
}

/** The addon stops counting (and highlighting) here. */
const highlightLimit = 1000

function resultText(results: { index: number; count: number } | undefined): string {
  if (!results) return ''
  if (results.count === 0) return 'No results'
  const count = results.count >= highlightLimit ? `${highlightLimit}+` : String(results.count)
  return results.index >= 0 ? `${results.index + 1} of ${count}` : `${count} results`
}

/**
 * Find in a terminal's screen and scrollback: incremental as you type, Enter / Shift+Enter for the
 * next / previous match (which is selected, so Ctrl+Shift+C copies it), Escape closes.
 */
export function TerminalSearch({
  loadSearch,
  focusRequest,
  initial,
  onClose,
}: {
  /** The terminal's search addon, fetched the first time find is opened. */
  loadSearch(): Promise<SearchAddon>
  /** Changes whenever the user asks for find again, to bring focus back to the box. */
  focusRequest: number
  initial: string
  onClose(): void
}) {
  const input = useRef<HTMLInputElement>(null)
  const [query, setQuery] = useState(initial)
  const [results, setResults] = useState<{ index: number; count: number }>()
  const [search, setSearch] = useState<SearchAddon>()

  useEffect(() => {
    let live = true
    loadSearch().then(
      (addon) => live && setSearch(addon),
      () => live && setResults(undefined),
    )
    return () => {
      live = false
    }
  }, [loadSearch])

  // What was typed while the addon loaded is searched once it is here.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when the addon arrives
  useEffect(() => {
    if (!search) return
    if (query) search.findNext(query, { ...options, incremental: true })
    const subscription = search.onDidChangeResults(({ resultIndex, resultCount }) =>
      setResults({ index: resultIndex, count: resultCount }),
    )
    return () => {
      subscription.dispose()
      search.clearDecorations()
    }
  }, [search])

  // biome-ignore lint/correctness/useExhaustiveDependencies: focus follows each new request
  useEffect(() => {
    input.current?.focus()
    input.current?.select()
  }, [focusRequest])

  const find = (direction: 'next' | 'previous', text = query) => {
    if (!search) return
    if (!text) {
      search.clearDecorations()
      setResults(undefined)
    } else if (direction === 'next') search.findNext(text, options)
    else search.findPrevious(text, options)
  }

  return (
    // Above xterm's own layers (decorations, accessibility tree), which carry z-indexes up to 10.
    <search className="terminal-overlay terminal-search" aria-label="Find in terminal" style={{ zIndex: 20 }}>
      <input
        ref={input}
        type="search"
        aria-label="Find in terminal"
        placeholder="Find"
        value={query}
        onChange={(e) => {
          setQuery(e.target.value)
          if (e.target.value) search?.findNext(e.target.value, { ...options, incremental: true })
          else find('next', '')
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault()
            find(e.shiftKey ? 'previous' : 'next')
          } else if (e.key === 'Escape') {
            e.preventDefault()
            onClose()
          }
        }}
      />
      <span aria-live="polite">{resultText(results)}</span>
      <IconButton
        icon="arrow-up"
        label="Previous match"
        aria-keyshortcuts="Shift+Enter"
        onClick={() => find('previous')}
      />
      <IconButton
        icon="arrow-down"
        label="Next match"
        aria-keyshortcuts="Enter"
        onClick={() => find('next')}
      />
      <IconButton icon="close" label="Close find" aria-keyshortcuts="Escape" onClick={onClose} />
    </search>
  )
}
