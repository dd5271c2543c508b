import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { dueOf } from '../../contract/deadlines'
import { classDeadlines, type DeadlineRules } from '../../sandbox/classDeadlines'
import type { ClassPlace } from '../../sandbox/localStack'
import { reportErrors } from '../../ui/notifications'
import { classKey } from './classKey'

/** What the dashboard shows and does of a class's deadline; see useClassDeadline. */
export type ClassDeadlineBoard = ReturnType<typeof useClassDeadline>

/**
 * A class's deadline (the stack's own, or one on E2B: `place`), its rules and its students'
 * extensions, set by the teacher; each change is followed by a fresh look at the gradebook too
 * (lateness and the counted grade follow the deadline), its outcome in `summary`.
 */
export function useClassDeadline(place: ClassPlace, name: string) {
  const queryClient = useQueryClient()
  const key = ['deadline', ...classKey(place, name)]
  const deadline = useQuery({ queryKey: key, queryFn: () => classDeadlines.get(place, name) })
  const [summary, setSummary] = useState<string>()
  const change = useMutation({
    mutationFn: async ({ run }: { what: string; done: string; run: () => Promise<unknown> }) => run(),
    onSuccess: (_answer, { done }) => setSummary(done),
    onError: (err, { what }) => void reportErrors(what, () => Promise.reject(err)),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: key }),
        queryClient.invalidateQueries({ queryKey: ['grades', ...classKey(place, name)] }),
      ]),
  })
  return {
    deadline,
    place,
    summary,
    busy: change.isPending,
    /** The student's deadline (their extension, else the class's), and whether it is an extension. */
    dueOf: (student: string) => {
      const d = deadline.data
      const at = d && dueOf(d, student)
      return at ? { at, extended: Object.hasOwn(d.extensions, student) } : undefined
    },
    save: (rules: DeadlineRules) =>
      change.mutate({
        what: 'Saving the deadline failed',
        done: 'The deadline is saved.',
        run: () => classDeadlines.set(place, name, rules),
      }),
    /** Gives a student a deadline of their own, or takes it back (`until` null). */
    extend: (student: string, until: string | null) =>
      change.mutate({
        what: 'The extension failed',
        done: until ? `${student} has an extension.` : `${student}'s extension is taken back.`,
        run: () => classDeadlines.extend(place, name, student, until),
      }),
  }
}
