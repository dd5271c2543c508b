import { useQuery } from '@tanstack/react-query'
import type { SubmissionDetail } from '../../contract/gradebook'
import type { SimilarLines, SimilarPair, SimilarSubmission } from '../../contract/similarity'
import { classGrades } from '../../sandbox/classGrades'
import type { ClassPlace } from '../../sandbox/localStack'
import { classKey } from './classKey'
import { SubmissionDialog } from './SubmissionDialog'

/** A few lines around a match, so it reads in its place. */
const context = 2

/** The lines of one side of a match, numbered, with the matching ones marked (by a `▌` too: never colour alone). */
function Excerpt({ detail, at }: { detail: SubmissionDetail | undefined; at: SimilarLines }) {
  const text = detail?.files.find((f) => f.path === at.path)?.text
  if (text === undefined)
    return <p className="muted">{detail ? `${at.path} is not shown (binary or too large).` : 'Loading…'}</p>
  const all = text.split('\n')
  const first = Math.max(1, at.from - context)
  const last = Math.min(all.length, at.to + context)
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a long excerpt scrolls, and the keyboard must reach it (WCAG 2.1.1)
    <pre tabIndex={0} className="similar-excerpt">
      {all.slice(first - 1, last).map((line, i) => {
        const n = first + i
        const inside = n >= at.from && n <= at.to
        return (
          <span key={n} className={inside ? 'similar-match' : undefined}>
            {String(n).padStart(4)} {inside ? '▌' : ' '} {line}
            {'\n'}
          </span>
        )
      })}
    </pre>
  )
}

/** One student's side of a match: whose lines and where, then the lines. */
function Side({
  student,
  detail,
  at,
}: {
  student: string
  detail: SubmissionDetail | undefined
  at: SimilarLines
}) {
  return (
    <div>
      <h3>
        {student}: {at.path}, lines {at.from}–{at.to}
      </h3>
      <Excerpt detail={detail} at={at} />
    </div>
  )
}

function useDetail(place: ClassPlace, className: string, side: SimilarSubmission) {
  return useQuery({
    queryKey: ['submission', ...classKey(place, className), side.sandboxId, side.submissionId],
    queryFn: () => classGrades.submission(place, className, side.sandboxId, side.submissionId),
  })
}

/**
 * Two students' submissions side by side, match by match: for each region the pair shares, the
 * lines of one beside the lines of the other, with a little of what surrounds them.
 */
export function SimilarPairView({
  className,
  place,
  pair,
  onClose,
}: {
  className: string
  place: ClassPlace
  pair: SimilarPair
  onClose(): void
}) {
  const a = useDetail(place, className, pair.a)
  const b = useDetail(place, className, pair.b)
  const failed = a.error ?? b.error
  return (
    <SubmissionDialog
      titleId="similar-pair-title"
      title={`${pair.a.student} and ${pair.b.student}: ${Math.round(pair.score * 100)}% similar`}
      onClose={onClose}
    >
      <p className="muted">
        {pair.shared} shared fingerprints, in {pair.regions.length}{' '}
        {pair.regions.length === 1 ? 'place' : 'places'}. Read them before deciding anything: the same
        exercise often leads to the same code.
      </p>
      {failed && <p role="alert">{failed.message}</p>}
      {pair.regions.map((region, i) => (
        <section
          key={`${region.a.path}:${region.a.from}/${region.b.path}:${region.b.from}`}
          aria-label={`Match ${i + 1} of ${pair.regions.length}`}
          className="similar-region"
        >
          <Side student={pair.a.student} detail={a.data} at={region.a} />
          <Side student={pair.b.student} detail={b.data} at={region.b} />
        </section>
      ))}
    </SubmissionDialog>
  )
}
