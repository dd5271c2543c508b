import type { SubmissionsDeleted } from '../../../src/contract/gradebook'
import { sendJson } from '../api/httpJson'
import type { GradingJobs } from '../class/grading/gradingJobs'
import type { SubmissionStore } from '../class/grading/submissionStore'
import { PlatformError } from '../platformError'
import type { ScopedPrefix } from './classScope'
import type { IdeHandler, IdeRoute } from './ideRoute'

interface Deps {
  store: Pick<SubmissionStore, 'get' | 'remove' | 'all'>
  gradings: Pick<GradingJobs, 'cancel'>
}

/**
 * Deletes a submission, and stops its grading if it is being graded (waiting for a grader, or
 * running in one). Cancelled rather than refused: the teacher's word is the last on a
 * submission, and a grading may last its lab's whole time limit (or wait long behind a class's
 * regrade), so a refusal would leave them retrying for a grade nobody keeps. The snapshot goes
 * first, so no grading can start for it and a grader ending now writes nothing (the store's
 * setGrade finds no submission); then it waits for the grader sandbox to be gone, so once the
 * answer comes nothing of the submission remains. Its Submit answers 409, saying so.
 */
async function deleteOne({ store, gradings }: Deps, sandboxId: string, id: string): Promise<boolean> {
  if (!store.remove(sandboxId, id)) return false
  await gradings.cancel({ sandboxId, id })
  return true
}

/**
 * `DELETE [/remotes/{remoteId}]/classes/{name}/submissions/{sandboxId}/{submissionId}`: the
 * teacher deletes one submission of the class, its snapshot gone from the disk for good (204).
 * The gradebook, made from what is stored, no longer counts it. It shares its path with the
 * gradebook's GET.
 */
export function deleteSubmission(deps: Deps, scopeOf: ScopedPrefix['scopeOf']): IdeHandler {
  return async (_req, res, params) => {
    const { scope, rest } = scopeOf(params)
    const sandboxId = decodeURIComponent(rest[0] ?? '')
    const id = decodeURIComponent(rest[1] ?? '')
    const entry = deps.store.get(sandboxId, id)
    if (!entry || !scope.holds(entry.submission) || !(await deleteOne(deps, sandboxId, id)))
      throw new PlatformError(404, `class '${scope.name}' has no such submission`)
    res.writeHead(204).end()
  }
}

/**
 * `DELETE [/remotes/{remoteId}]/classes/{name}/submissions?student=S&lab=L`: the teacher deletes
 * every submission of one student for one lab (a gradebook's row), from whichever sandboxes they
 * came. The owner only, as every class route: a student's or a guest's session gets 403.
 */
export function submissionDeleteRoutes(deps: Deps & { scopes: ScopedPrefix[] }): IdeRoute[] {
  const { store } = deps
  return deps.scopes.map(({ prefix, scopeOf }) => ({
    pattern: new RegExp(`^${prefix}/classes/([^/]+)/submissions$`),
    methods: {
      DELETE: async (req, res, params) => {
        const { scope } = scopeOf(params)
        const name = scope.name
        const query = new URL(req.url ?? '', 'http://stack').searchParams
        const student = query.get('student')
        const lab = query.get('lab')
        if (!student || !lab) throw new PlatformError(400, 'say whose submissions: ?student=…&lab=…')
        const chosen = store
          .all()
          .filter(({ submission: s }) => scope.holds(s) && s.student === student && s.templateID === lab)
        if (chosen.length === 0)
          throw new PlatformError(404, `class '${name}' has no submissions of '${student}' for '${lab}'`)
        const done = await Promise.all(chosen.map(({ submission: s }) => deleteOne(deps, s.sandboxId, s.id)))
        const deleted = done.filter(Boolean).length
        sendJson(res, 200, { deleted } satisfies SubmissionsDeleted)
      },
    },
  }))
}
