import './problems.css'
import { useEffect, useId, useMemo, useRef, useState } from 'react'
import type { LanguageSnapshot } from '../../sandbox/language/LanguageService'
import type { FocusRequest } from '../../ui/FocusRequest'
import { Icon } from '../../ui/Icon'
import { type ExternalStore, useExternalStore } from '../../ui/useExternalStore'
import { countProblems, groupProblems, type ProblemRange, problemRows } from './groupProblems'
import { ProblemTree } from './ProblemTree'

const noRequests: ExternalStore<number> = { subscribe: () => () => {}, getSnapshot: () => 0 }

/** "2 errors, 1 warning". */
function problemSummary(errors: number, warnings: number): string {
  return `${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}`
}

interface ProblemsPanelProps {
  /** The workspace's code intelligence: what its servers report. */
  language: ExternalStore<LanguageSnapshot>
  /**
   * The watched home folder, read at each render: the watch learns it when it starts, before any
   * server has anything to report, and tells no one.
   */
  watch: { readonly root: string | undefined }
  /** Opens a file, at a place when there is one, and gives the editor the keyboard. */
  onOpen(path: string, at: ProblemRange | undefined): void
  /** Asks the panel to take the keyboard (Ctrl+Shift+M). */
  focus?: FocusRequest | undefined
}

/** What the language servers report, by file, as VS Code's Problems panel shows it. */
export function ProblemsPanel({ language, watch, onOpen, focus }: ProblemsPanelProps) {
  const snapshot = useExternalStore(language)
  const home = watch.root
  const files = useMemo(() => groupProblems(snapshot, home), [snapshot, home])
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(() => new Set())
  const rows = useMemo(() => problemRows(files, collapsed), [files, collapsed])
  const { errors, warnings } = countProblems(files)
  const summary = problemSummary(errors, warnings)
  const titleId = useId()
  const section = useRef<HTMLElement>(null)
  const requested = useExternalStore(focus ?? noRequests)
  useEffect(() => {
    // On mount too: the panel may have been hidden (and its code not loaded) when asked.
    if (!(requested > 0 && focus?.take())) return
    // A task later: the palette, closed by the same click, gives the keyboard back to where it
    // was in a task of its own (Radix's focus scope), which would otherwise undo this.
    setTimeout(() => section.current?.querySelector<HTMLElement>('[role="tree"], .panel-message')?.focus())
  }, [focus, requested])

  const toggle = (path: string) =>
    setCollapsed((current) => {
      const next = new Set(current)
      if (!next.delete(path)) next.add(path)
      return next
    })

  return (
    <section ref={section} className="panel problems" aria-labelledby={titleId}>
      <div className="panel-header">
        <h2 className="panel-title" id={titleId}>
          Problems
        </h2>
        <span className="problem-counts" title={summary}>
          <span className="visually-hidden">{summary}</span>
          <span aria-hidden="true">
            <Icon name="error" /> {errors} <Icon name="warning" /> {warnings}
          </span>
        </span>
      </div>
      {rows.length === 0 ? (
        // Focusable so Ctrl+Shift+M still moves the keyboard here, where a screen reader reads it.
        <p className="panel-message" tabIndex={-1}>
          No problems have been detected in the workspace.
        </p>
      ) : (
        <ProblemTree
          rows={rows}
          onOpen={(file, problem) => onOpen(file.path, problem.range)}
          onToggle={(file) => toggle(file.path)}
        />
      )}
    </section>
  )
}
