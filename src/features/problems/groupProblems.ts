import type { Diagnostic } from 'vscode-languageserver-protocol'
import { workspaceLanguagesFile } from '../../contract/languageTable'
import type { LanguageSnapshot } from '../../sandbox/language/LanguageService'

export type Severity = 'error' | 'warning' | 'info'

/** A place in a file in the editor's terms: lines and columns from 1, as Monaco counts them. */
export interface ProblemRange {
  startLine: number
  startColumn: number
  endLine: number
  endColumn: number
}

/** One problem as the panel shows it. */
export interface Problem {
  severity: Severity
  message: string
  /** Who reported it and its code, as VS Code writes them: "Pyright(reportUndefinedVariable)", "ts(2304)". */
  source: string | undefined
  /** Where it is; none for what is wrong with the workspace's languages file as a whole. */
  range: ProblemRange | undefined
}

/** A file with problems: its absolute path (what the editor opens) and the path shown. */
export interface ProblemFile {
  path: string
  label: string
  problems: Problem[]
}

/** A row of the panel's tree: a file (level 1) or one of its problems (level 2). */
export type ProblemRow =
  | { kind: 'file'; key: string; file: ProblemFile; expanded: boolean; posinset: number; setsize: number }
  | { kind: 'problem'; key: string; file: ProblemFile; problem: Problem; posinset: number; setsize: number }

// LSP's severities; a diagnostic without one is the client's to interpret, and LSP clients take it as an error
// (the service counts it as one too). Hints (4) are not problems: VS Code shows them in the editor only (faded
// unused code, suggestions), and a panel listing each would bury the errors.
const severities: Record<number, Severity | undefined> = { 1: 'error', 2: 'warning', 3: 'info' }
const severityRank: Record<Severity, number> = { error: 0, warning: 1, info: 2 }

function problemOf(d: Diagnostic): Problem | undefined {
  const severity = severities[d.severity ?? 1]
  if (!severity) return undefined
  const code = d.code === undefined ? '' : `(${d.code})`
  return {
    severity,
    // LSP 3.18 lets a server send Markdown; the panel shows its text as it is, on one line.
    message: typeof d.message === 'string' ? d.message : d.message.value,
    source: d.source || code ? `${d.source ?? ''}${code}` : undefined,
    // LSP counts from 0 in UTF-16 code units, Monaco from 1 in the same units.
    range: {
      startLine: d.range.start.line + 1,
      startColumn: d.range.start.character + 1,
      endLine: d.range.end.line + 1,
      endColumn: d.range.end.character + 1,
    },
  }
}

function byPosition(a: Problem, b: Problem): number {
  return (
    (a.range?.startLine ?? 0) - (b.range?.startLine ?? 0) ||
    (a.range?.startColumn ?? 0) - (b.range?.startColumn ?? 0) ||
    severityRank[a.severity] - severityRank[b.severity]
  )
}

/**
 * The problems of a workspace by file, for the Problems panel: the languages file's own problems
 * first (as errors: no server runs as the file says until they are fixed), then every file with
 * diagnostics, sorted by path, each file's problems by position. Paths under `home` are shown
 * relative to it.
 */
export function groupProblems(
  snapshot: Pick<LanguageSnapshot, 'diagnostics' | 'problems'>,
  home: string | undefined,
): ProblemFile[] {
  const label = (path: string) => (home && path.startsWith(`${home}/`) ? path.slice(home.length + 1) : path)
  const files: ProblemFile[] = []
  for (const [path, diagnostics] of snapshot.diagnostics) {
    const problems = diagnostics.flatMap((d) => problemOf(d) ?? [])
    if (problems.length) files.push({ path, label: label(path), problems: problems.sort(byPosition) })
  }
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
  if (!snapshot.problems.length) return files
  const path = home ? `${home}/${workspaceLanguagesFile}` : workspaceLanguagesFile
  // Listed under the file's name, a problem need not start with it too.
  const prefix = `${workspaceLanguagesFile}: `
  const own: Problem[] = snapshot.problems.map((message) => ({
    severity: 'error',
    message: message.startsWith(prefix) ? message.slice(prefix.length) : message,
    source: undefined,
    range: undefined,
  }))
  // A server that reads JSON may report on the same file: one group, the file's own problems first.
  const reported = files.findIndex((f) => f.path === path)
  const others = reported >= 0 ? (files.splice(reported, 1)[0]?.problems ?? []) : []
  return [{ path, label: workspaceLanguagesFile, problems: [...own, ...others] }, ...files]
}

/** The rows the tree shows: each file, and its problems unless it is collapsed. */
export function problemRows(files: readonly ProblemFile[], collapsed: ReadonlySet<string>): ProblemRow[] {
  const rows: ProblemRow[] = []
  files.forEach((file, i) => {
    const expanded = !collapsed.has(file.path)
    rows.push({ kind: 'file', key: file.path, file, expanded, posinset: i + 1, setsize: files.length })
    if (!expanded) return
    file.problems.forEach((problem, j) => {
      rows.push({
        kind: 'problem',
        key: `${file.path}\n${j}`,
        file,
        problem,
        posinset: j + 1,
        setsize: file.problems.length,
      })
    })
  })
  return rows
}

/** Errors and warnings among the groups (the status bar and the panel's header show them). */
export function countProblems(files: readonly ProblemFile[]): { errors: number; warnings: number } {
  let errors = 0
  let warnings = 0
  for (const file of files)
    for (const p of file.problems) {
      if (p.severity === 'error') errors++
      else if (p.severity === 'warning') warnings++
    }
  return { errors, warnings }
}
