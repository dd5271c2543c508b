import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import type { SimilarLines, SimilarPair } from '../../contract/similarity'
import { classGrades } from '../../sandbox/classGrades'
import type { ClassPlace } from '../../sandbox/localStack'
import { classKey } from './classKey'
import { SimilarPairView } from './SimilarPairView'

const percent = (share: number) => `${Math.round(share * 100)}%`
const lines = ({ path, from, to }: SimilarLines) => `${path} ${from === to ? from : `${from}–${to}`}`

/** A class's place and name, and the labs whose submissions may be compared. */
export interface SimilarSubmissionsProps {
  className: string
  place: ClassPlace
  labs: string[]
}

/**
 * The most similar pairs of a lab's latest submissions, for the teacher to read: each with its
 * share of shared code and where it is; a pair opens both side by side. Never a verdict: short or
 * formulaic labs share code honestly, and the caption says so.
 */
export function SimilarSubmissions({ className, place, labs }: SimilarSubmissionsProps) {
  const [lab, setLab] = useState(labs[0] ?? '')
  const [shown, setShown] = useState<SimilarPair>()
  const report = useQuery({
    queryKey: ['similar', ...classKey(place, className), lab],
    queryFn: () => classGrades.similar(place, className, lab),
    enabled: lab !== '',
  })
  return (
    <>
      {labs.length > 1 && (
        <label className="similar-lab">
          Lab{' '}
          <select value={lab} onChange={(event) => setLab(event.target.value)}>
            {labs.map((l) => (
              <option key={l}>{l}</option>
            ))}
          </select>
        </label>
      )}
      {report.isPending && <p className="panel-message">Comparing the submissions of {lab}…</p>}
      {report.isError && <p role="alert">{report.error.message}</p>}
      {report.data &&
        (report.data.pairs.length === 0 ? (
          <p role="status">
            No two of the {report.data.compared} latest submissions of {lab} share code beyond the starting
            files.
          </p>
        ) : (
          <table className="sandbox-table similar-table">
            <caption>
              Pairs of the {report.data.compared} students' latest submissions of {lab} that share the most
              code beyond the starting files (names, literals and comments aside). Something to read, never a
              verdict.
            </caption>
            <thead>
              <tr>
                <th scope="col">Students</th>
                <th scope="col">Similar</th>
                <th scope="col">Matching lines</th>
                <th scope="col">
                  <span className="visually-hidden">Compare</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {report.data.pairs.map((pair) => {
                const names = `${pair.a.student} and ${pair.b.student}`
                return (
                  <tr key={`${pair.a.submissionId}/${pair.b.submissionId}`}>
                    <th scope="row">{names}</th>
                    <td title={`${pair.shared} shared fingerprints; Jaccard ${percent(pair.jaccard)}`}>
                      {percent(pair.score)}
                    </td>
                    <td>
                      {pair.regions.slice(0, 3).map((r) => (
                        <div key={`${lines(r.a)}/${lines(r.b)}`}>
                          {lines(r.a)} ↔ {lines(r.b)}
                        </div>
                      ))}
                      {pair.regions.length > 3 && (
                        <div className="muted">and {pair.regions.length - 3} more</div>
                      )}
                    </td>
                    <td>
                      <button
                        type="button"
                        aria-label={`Compare ${names} side by side`}
                        onClick={() => setShown(pair)}
                      >
                        Compare
                      </button>
                    </td>
                  </tr>
                )
              })}
            </tbody>
          </table>
        ))}
      {report.data && report.data.skipped.length > 0 && (
        <p className="muted">
          Not compared: {report.data.skipped.map((s) => `${s.student}'s ${s.path} (${s.why})`).join(', ')}.
        </p>
      )}
      {shown && (
        <SimilarPairView
          className={className}
          place={place}
          pair={shown}
          onClose={() => setShown(undefined)}
        />
      )}
    </>
  )
}
