import './lab.css'
import { Suspense, useId } from 'react'
import { lazyNamed } from '../../ui/lazyNamed'
import { useExternalStore } from '../../ui/useExternalStore'
import { GradingSection, SubmitButton } from './GradingSection'
import type { CheckState, LabController, ResetState } from './LabController'
import { ResetDialog } from './ResetDialog'

// react-markdown and its parser load only when a lab is shown.
const LabInstructions = lazyNamed(() => import('./LabInstructions'), 'LabInstructions')

interface LabPanelProps {
  lab: LabController
  /** Opens a file (relative to the home folder) in the editor. */
  onOpenFile(path: string): void
  /** The editor holds changes the check will not see until they are saved. */
  unsavedChanges: boolean
}

/**
 * The lab beside the editor: its instructions, Check with its verdict and output, Reset, and for a
 * graded lab Submit with the grade and the earlier submissions.
 */
export function LabPanel({ lab, onOpenFile, unsavedChanges }: LabPanelProps) {
  const snap = useExternalStore(lab)
  const titleId = useId()
  const state = snap.lab
  if (state.kind === 'none') return null
  return (
    <section className="panel lab-panel" aria-labelledby={titleId}>
      <div className="panel-header">
        <h2 className="panel-title" id={titleId}>
          {state.kind === 'ready' ? `Lab: ${state.manifest.title}` : 'Lab'}
        </h2>
      </div>
      {state.kind === 'invalid' ? (
        <div className="lab-problem" role="alert">
          <p>This lab cannot be shown: its manifest has problems.</p>
          <pre>{state.error}</pre>
        </div>
      ) : (
        <div className="lab-body">
          <div className="lab-actions">
            {state.manifest.check && (
              <button
                type="button"
                className="primary"
                disabled={!lab.canCheck}
                onClick={() => void lab.check()}
              >
                Check
              </button>
            )}
            {snap.grading && <SubmitButton grading={snap.grading} />}
            {state.manifest.reset !== false && (
              <button type="button" disabled={!lab.canReset} onClick={() => lab.requestReset()}>
                Reset…
              </button>
            )}
          </div>
          {state.manifest.check && unsavedChanges && (
            <p className="lab-note">Unsaved changes in the editor are not checked: save them first.</p>
          )}
          {state.manifest.check && <CheckResult check={snap.check} />}
          {snap.grading && <GradingSection grading={snap.grading} home={snap.home} />}
          <ResetResult reset={snap.reset} />
          <section className="lab-instructions" aria-label="Instructions">
            {state.instructions.kind === 'text' && (
              <Suspense fallback={<p className="panel-message">Loading the instructions…</p>}>
                <LabInstructions
                  text={state.instructions.text}
                  path={state.instructions.path}
                  onOpenFile={onOpenFile}
                />
              </Suspense>
            )}
            {state.instructions.kind === 'error' && <p role="alert">{state.instructions.message}</p>}
          </section>
          <ResetDialog
            open={snap.reset.kind === 'confirming'}
            paths={state.manifest.reset === false ? undefined : state.manifest.reset.paths}
            onAnswer={(confirmed) => void lab.answerReset(confirmed)}
          />
        </div>
      )}
    </section>
  )
}

function verdict(check: CheckState): string {
  switch (check.kind) {
    case 'idle':
      return 'Not checked yet.'
    case 'running':
      return 'Checking…'
    case 'error':
      return `The check could not run: ${check.message}`
    case 'done':
      if (check.passed) return 'Passed.'
      if (check.result.timedOut) return `Failed: the check took too long (${check.result.status}).`
      return `Failed: ${check.result.status || `exit code ${check.result.exitCode}`}.`
  }
}

function CheckResult({ check }: { check: CheckState }) {
  const output = check.kind === 'running' ? check.output : check.kind === 'done' ? check.result.output : ''
  const outcome = check.kind === 'done' ? (check.passed ? 'passed' : 'failed') : check.kind
  return (
    <div className="lab-check">
      <p className="lab-verdict" role="status" aria-label="Check result" data-outcome={outcome}>
        {verdict(check)}
      </p>
      {output && (
        <details open={check.kind === 'running' || (check.kind === 'done' && !check.passed)}>
          <summary>Output</summary>
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex: focusable, so the keyboard can scroll it */}
          <section className="lab-output" tabIndex={0} aria-label="Check output">
            <pre>{output}</pre>
          </section>
        </details>
      )}
    </div>
  )
}

function ResetResult({ reset }: { reset: ResetState }) {
  if (reset.kind === 'error') return <p role="alert">Reset failed: {reset.message}</p>
  return (
    <p className="lab-note" role="status" aria-label="Reset result">
      {reset.kind === 'running' ? 'Resetting…' : reset.kind === 'done' ? 'The starting files are back.' : ''}
    </p>
  )
}
