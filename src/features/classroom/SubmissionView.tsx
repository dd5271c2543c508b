import { useQuery } from '@tanstack/react-query'
import type { SubmissionDetail } from '../../contract/gradebook'
import { classGrades } from '../../sandbox/classGrades'
import { classKey } from './classKey'
import { scoreText, when } from './gradeText'
import { SubmissionDeletion } from './SubmissionDeletion'
import { SubmissionDialog } from './SubmissionDialog'
import type { ShownSubmission } from './shownSubmission'

/** A diff's lines, each marked by its kind (its own +, - or @@ stays: never colour alone). */
function DiffLines({ diff }: { diff: string }) {
  const lines = diff.replace(/\n$/, '').split('\n')
  const kind = (line: string) =>
    line.startsWith('+++') || line.startsWith('---')
      ? 'diff-file'
      : line.startsWith('@@')
        ? 'diff-hunk'
        : line.startsWith('+')
          ? 'diff-add'
          : line.startsWith('-')
            ? 'diff-del'
            : undefined
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a long diff scrolls, and the keyboard must reach it (WCAG 2.1.1)
    <pre className="diff" tabIndex={0}>
      {lines.map((line, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the lines of a diff that never reorders
        <span key={i} className={kind(line)}>
          {line}
          {'\n'}
        </span>
      ))}
    </pre>
  )
}

function Grade({ grade }: { grade: NonNullable<SubmissionDetail['grade']> }) {
  return (
    <>
      <h3>Tests</h3>
      {grade.problem && <p>It earned nothing: {grade.problem}.</p>}
      {grade.tests.length === 0 ? (
        <p className="muted">
          No report: graded by the command's exit status ({grade.status || `exit ${grade.exitCode}`}).
        </p>
      ) : (
        <ul className="grade-tests">
          {grade.tests.map((t) => (
            <li key={`${t.className ?? ''}.${t.name}`}>
              <span className={t.outcome === 'passed' ? 'check-pass' : 'check-fail'}>
                {t.outcome === 'passed' ? '✓ passed' : t.outcome === 'skipped' ? '– skipped' : '✗ failed'}
              </span>{' '}
              {t.name} ({t.earned} / {t.points})
              {t.message && <pre className="grade-message">{t.message}</pre>}
            </li>
          ))}
        </ul>
      )}
      {grade.ignored.length > 0 && (
        <p className="muted">Not used (the lab's own files stood instead): {grade.ignored.join(', ')}</p>
      )}
      <h3>Grader output</h3>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a long output scrolls, and the keyboard must reach it (WCAG 2.1.1) */}
      <pre tabIndex={0}>{grade.output.trim() || grade.status}</pre>
    </>
  )
}

/**
 * One submission for the teacher, in a dialog: its score and tests, the grader's output, a diff
 * against the lab's starting files, and its files read-only. Another attempt of the same student
 * and lab is one choice away.
 */
export function SubmissionView(props: ShownSubmission) {
  const { className, place, row, attempt, onAttempt, onClose } = props
  const detail = useQuery({
    queryKey: ['submission', ...classKey(place, className), attempt.sandboxId, attempt.submissionId],
    queryFn: () => classGrades.submission(place, className, attempt.sandboxId, attempt.submissionId),
  })
  const index = row.submissions.findIndex((s) => s.submissionId === attempt.submissionId)
  const counted = row.counted?.submissionId
  return (
    <SubmissionDialog
      titleId="submission-title"
      title={`${row.student}'s submission of ${row.lab}`}
      onClose={onClose}
    >
      {row.submissions.length > 1 && (
        <label className="submission-attempt">
          Attempt{' '}
          <select
            value={attempt.submissionId}
            onChange={(event) => {
              const chosen = row.submissions.find((s) => s.submissionId === event.target.value)
              if (chosen) onAttempt(chosen)
            }}
          >
            {row.submissions.map((s, i) => (
              <option key={s.submissionId} value={s.submissionId}>
                {i + 1} · {when(s.submittedAt)} · {scoreText(s)}
                {s.submissionId === counted ? ' (counts)' : ''}
              </option>
            ))}
          </select>
        </label>
      )}
      <p>
        Attempt {index + 1} of {row.submissions.length}, submitted {when(attempt.submittedAt)}:{' '}
        <strong>{scoreText(attempt)}</strong>
        {attempt.submissionId === counted ? ' (the one that counts)' : ''}
      </p>
      <SubmissionDeletion {...props} />
      {detail.isPending && <p className="panel-message">Loading the submission…</p>}
      {detail.isError && <p role="alert">{detail.error.message}</p>}
      {detail.data && (
        <>
          <p className="muted">
            Content hash <code>{detail.data.contentHash}</code>
          </p>
          {detail.data.grade ? <Grade grade={detail.data.grade} /> : <p>Not graded.</p>}
          <h3>Changes from the starting files</h3>
          {detail.data.diff ? (
            <DiffLines diff={detail.data.diff} />
          ) : (
            <p className="muted">None: the files are the lab's starting files.</p>
          )}
          <h3>Files ({detail.data.files.length})</h3>
          <ul className="submission-files">
            {detail.data.files.map((f) => (
              <li key={f.path}>
                {f.text === undefined ? (
                  <span>
                    {f.path}{' '}
                    <span className="muted">
                      ({f.size} bytes, {f.omitted ?? 'not shown'})
                    </span>
                  </span>
                ) : (
                  <details>
                    <summary>
                      {f.path} <span className="muted">({f.size} bytes)</span>
                    </summary>
                    {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a long file scrolls, and the keyboard must reach it (WCAG 2.1.1) */}
                    <pre tabIndex={0}>{f.text}</pre>
                  </details>
                )}
              </li>
            ))}
          </ul>
        </>
      )}
    </SubmissionDialog>
  )
}
