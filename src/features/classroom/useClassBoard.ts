import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import type { ClassStudent } from '../../contract/ideApiTypes'
import { localStack } from '../../sandbox/localStack'
import { copyText } from '../../ui/copyText'
import { reportErrors } from '../../ui/notifications'
import { useNow } from '../../ui/useNow'

/** How often the dashboard and the list of classes ask again: live enough for a room, light for the stack. */
export const refreshMs = 3000
const twoHours = 2 * 60 * 60

/** What the teacher's dashboard of a class shows and does; see useClassBoard. */
export type ClassBoard = ReturnType<typeof useClassBoard>

/**
 * A class, asked again every few seconds, and what the teacher does to it: one action at a time
 * (`busy` while one runs), each followed by a fresh look, its failure a notice. `summary` is what
 * the last check of everyone or new link came to, in words.
 */
export function useClassBoard(name: string, remoteId: string | undefined) {
  const queryClient = useQueryClient()
  const now = useNow(refreshMs)
  const place = remoteId ? { remoteId } : {}
  const key = ['class', remoteId ?? '', name]
  const view = useQuery({
    queryKey: key,
    queryFn: () => localStack.classes.view(place, name),
    refetchInterval: refreshMs,
  })
  const [summary, setSummary] = useState<string>()
  const act = useMutation({
    mutationFn: async ({ run }: { what: string; run: () => Promise<unknown> }) => run(),
    onError: (err, { what }) => void reportErrors(what, () => Promise.reject(err)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  })
  const run = (what: string, work: () => Promise<unknown>) => act.mutate({ what, run: work })

  /** Everyone's lab, with how many pass in the summary; or these students' alone. */
  const check = (sandboxIds?: string[]) =>
    run('The check failed', async () => {
      setSummary(sandboxIds ? undefined : 'Checking every student’s lab…')
      const answer = await localStack.classes.check(place, name, sandboxIds)
      if (!sandboxIds)
        setSummary(
          `${answer.passed} of ${answer.checked} passing${
            answer.checked < answer.students
              ? ` (${answer.students - answer.checked} paused, not checked)`
              : ''
          }`,
        )
    })

  return {
    view,
    place,
    now,
    busy: act.isPending,
    summary,
    check,
    pauseAll: () => run('Pausing failed', () => localStack.classes.pauseOrResume(place, name, 'pause')),
    resumeAll: () => run('Resuming failed', () => localStack.classes.pauseOrResume(place, name, 'resume')),
    extendAll: () => run('Extending failed', () => localStack.classes.extend(place, name, twoHours)),
    end: () => run('Ending the class failed', () => localStack.classes.end(place, name)),
    /** Pauses a running student's sandbox, resumes any other. */
    pauseOrResume: (student: ClassStudent) =>
      run('That failed', () =>
        localStack.classes.pauseOrResume(place, name, student.state === 'running' ? 'pause' : 'resume', [
          student.sandboxId,
        ]),
      ),
    resetLab: (student: ClassStudent) =>
      run('The reset failed', () => localStack.classes.resetLab(place, student.sandboxId)),
    /** Puts a new join link on the clipboard; the student's old ones stop working. */
    newLink: (student: ClassStudent) =>
      run('Making a new link failed', async () => {
        const link = await localStack.classes.newJoinLink(place, student.sandboxId)
        await copyText(`${location.origin}/join#token=${link.token}`)
        setSummary(
          `A new link for ${student.student} is on the clipboard; the old one no longer opens anything.`,
        )
      }),
  }
}
