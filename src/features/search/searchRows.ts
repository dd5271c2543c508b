import type { SearchMatch } from '../../sandbox/search/textQuery'
import type { ResultFile } from './SearchModel'

/** A row of the results tree: a file (level 1) or one of its matches (level 2). */
export type SearchRow =
  | { kind: 'file'; key: string; file: ResultFile; expanded: boolean; posinset: number; setsize: number }
  | {
      kind: 'match'
      key: string
      file: ResultFile
      match: SearchMatch
      posinset: number
      setsize: number
    }

/** The rows the tree shows: each file, and its matches unless it is folded. */
export function searchRows(files: readonly ResultFile[], collapsed: ReadonlySet<string>): SearchRow[] {
  const rows: SearchRow[] = []
  files.forEach((file, i) => {
    const expanded = !collapsed.has(file.path)
    rows.push({ kind: 'file', key: file.path, file, expanded, posinset: i + 1, setsize: files.length })
    if (!expanded) return
    file.matches.forEach((match, j) => {
      rows.push({
        kind: 'match',
        key: `${file.path}\n${match.line}:${match.start}:${j}`,
        file,
        match,
        posinset: j + 1,
        setsize: file.matches.length,
      })
    })
  })
  return rows
}

/** "5 results in 3 files", as VS Code says it. */
export function resultSummary(matches: number, files: number): string {
  const results = `${matches.toLocaleString('en')} result${matches === 1 ? '' : 's'}`
  return `${results} in ${files.toLocaleString('en')} file${files === 1 ? '' : 's'}`
}
