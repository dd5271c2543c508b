import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { type Gradebook, gradebookCsv, type RegradeAnswer } from '../../contract/gradebook'
import { classGrades } from '../../sandbox/classGrades'
import type { ClassPlace } from '../../sandbox/localStack'
import { reportErrors } from '../../ui/notifications'
import { saveToComputer } from '../../ui/saveToComputer'
import { classKey } from './classKey'

/** Submissions come in one at a time: a slower look than the students' table's is live enough. */
const gradesRefreshMs = 10_000

/** What a regrade came to, in words. */
export function regradeSummary({ regraded, changed, failed }: RegradeAnswer): string {
  const counted = `${regraded} ${regraded === 1 ? 'submission' : 'submissions'} regraded, ${changed} with a new score`
  if (failed.length === 0) return `${counted}.`
  const first = failed[0]
  return `${counted}; ${failed.length} could not be graded again and keep their grade (${first?.student}: ${first?.error}).`
}

/**
 * A class's gradebook, asked again every few seconds while shown, with Regrade all (the answer's summary in
 * `summary`) and Download CSV: the gradebook asked for afresh and written by the stack's own CSV
 * writer (src/contract/gradebook.ts), so the file is the one `npm run class -- --grades --csv` prints.
 */
export function useGradebook(place: ClassPlace, name: string, active: boolean) {
  const queryClient = useQueryClient()
  const key = ['grades', ...classKey(place, name)]
  const grades = useQuery({
    queryKey: key,
    queryFn: () => classGrades.grades(place, name),
    // Only while its tab is shown.
    refetchInterval: active ? gradesRefreshMs : false,
  })
  const [summary, setSummary] = useState<string>()
  const regrade = useMutation({
    mutationFn: () => {
      setSummary('Regrading every submission against the lab as it is now…')
      return classGrades.regrade(place, name)
    },
    onSuccess: (answer) => setSummary(regradeSummary(answer)),
    onError: (err) => {
      setSummary(undefined)
      void reportErrors('Regrading failed', () => Promise.reject(err))
    },
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: key }),
        queryClient.invalidateQueries({ queryKey: ['submission', ...classKey(place, name)] }),
      ]),
  })
  const downloadCsv = () =>
    reportErrors('Downloading the grades failed', async () => {
      const book = await queryClient.fetchQuery<Gradebook>({
        queryKey: key,
        queryFn: () => classGrades.grades(place, name),
        staleTime: 0,
      })
      saveToComputer(new Blob([gradebookCsv(book)], { type: 'text/csv;charset=utf-8' }), `grades-${name}.csv`)
    })
  return {
    grades,
    summary,
    regrading: regrade.isPending,
    regradeAll: () => regrade.mutate(),
    downloadCsv,
  }
}
