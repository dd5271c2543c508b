import { Suspense, useState } from 'react'
import { lazyNamed } from '../../ui/lazyNamed'
import type { SimilarSubmissionsProps } from './SimilarSubmissions'

/** The comparison's code comes when the teacher asks for it, not with the gradebook. */
const SimilarSubmissions = lazyNamed(() => import('./SimilarSubmissions'), 'SimilarSubmissions')

/** The gradebook's "Similar submissions" section: a button until asked, then the pairs of a lab. */
export function SimilarSection({ className, place, labs }: SimilarSubmissionsProps) {
  const [asked, setAsked] = useState(false)
  return (
    <section aria-labelledby="similar-title" className="similar-section">
      <h3 id="similar-title">Similar submissions</h3>
      {asked ? (
        <Suspense fallback={<p className="panel-message">Loading…</p>}>
          <SimilarSubmissions className={className} place={place} labs={labs} />
        </Suspense>
      ) : (
        <button type="button" onClick={() => setAsked(true)} onPointerEnter={SimilarSubmissions.preload}>
          Compare the students' latest submissions…
        </button>
      )}
    </section>
  )
}
