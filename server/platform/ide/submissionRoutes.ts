import { type ClassDeadline, dueOf, lateness, noDeadline } from '../../../src/contract/deadlines'
import type { LabManifest } from '../../../src/contract/labManifest'
import { sendJson } from '../api/httpJson'
import type { ClassDeadlines } from '../class/classDeadlines'
import { type Grade, gradeSubmission, NotGradableError } from '../class/grading/gradeSubmission'
import { GradingCancelled, type GradingJobs } from '../class/grading/gradingJobs'
import { studentFiles } from '../class/grading/studentFiles'
import { SubmissionError } from '../class/grading/submissionFiles'
import type { Submission, SubmissionStore } from '../class/grading/submissionStore'
import { isSandboxId } from '../ids'
import { PlatformError } from '../platformError'
import type { SandboxManager } from '../sandboxManager'
import { readLabTemplate } from '../templates/labTemplate'
import type { TemplateCatalog } from '../templates/templateCatalog'
import type { IdeRoute } from './ideRoute'

type Feedback = NonNullable<LabManifest['grade']>['feedback']

/**
 * A submission as its caller may see it: the teacher everything, a student what the lab's
 * `feedback` allows (no grader output, which could show a hidden test; messages only with
 * `messages`, tests only unless `score`).
 */
function view(
  entry: { submission: Submission; grade?: Grade },
  feedback: Feedback | 'all',
  deadline: ClassDeadline,
) {
  const { submission: stored, grade } = entry
  // Late by the deadline as it is now (an extension given since makes it on time).
  const late = lateness(deadline, stored.student, stored.submittedAt, grade?.score)
  const submission = { ...stored, ...(late.daysLate ? late : {}) }
  if (!grade || feedback === 'all') return { ...submission, ...(grade ? { grade } : {}) }
  const { score, maxScore, problem } = grade
  const tests =
    feedback === 'score'
      ? undefined
      : grade.tests.map(({ message, ...test }) =>
          feedback === 'messages' && message ? { ...test, message } : test,
        )
  return {
    ...submission,
    grade: { score, maxScore, ...(problem ? { problem } : {}), ...(tests ? { tests } : {}) },
  }
}

/**
 * Submissions of a lab sandbox of the stack's own: its student (their join link's session) or
 * the teacher submits the work as it is on disk and gets it graded at once; each reads that
 * sandbox's submissions. Another student's sandbox is 403 (the API's own-sandbox rule).
 */
export function submissionRoutes(deps: {
  manager: SandboxManager
  templates: Pick<TemplateCatalog, 'folder'>
  store: SubmissionStore
  /** The gradings under way, which deleting a submission stops. */
  gradings: GradingJobs
  /** The classes' deadlines: none when absent. */
  deadlines?: ClassDeadlines
}): IdeRoute[] {
  const { manager, templates, store, gradings } = deps
  const deadlineOf = (className: string | undefined) =>
    className && deps.deadlines ? deps.deadlines.get(className) : noDeadline
  const labOf = async (sandboxId: string) => {
    if (!isSandboxId(sandboxId)) throw new PlatformError(400, 'invalid sandbox id')
    const record = manager.get(sandboxId)
    const templateDir = await templates.folder(record.templateID)
    const lab = templateDir ? await readLabTemplate(templateDir) : undefined
    const feedback = lab?.manifest?.grade?.feedback
    if (!templateDir || !lab || !feedback) throw new PlatformError(409, 'this sandbox is not of a graded lab')
    return { record, templateDir, lab, feedback }
  }
  return [
    {
      pattern: /^\/sandboxes\/([^/]+)\/submissions$/,
      students: 'own-sandbox',
      methods: {
        GET: async (_req, res, params, caller) => {
          const sandboxId = params[0] ?? ''
          const { feedback } = await labOf(sandboxId)
          const seen = caller?.role === 'owner' ? 'all' : feedback
          sendJson(
            res,
            200,
            store.list(sandboxId).map((entry) => view(entry, seen, deadlineOf(entry.submission.className))),
          )
        },
        POST: async (_req, res, params, caller) => {
          if (caller?.role === 'guest')
            throw new PlatformError(403, 'a share link cannot submit: only the student can')
          const sandboxId = params[0] ?? ''
          const { record, templateDir, lab, feedback } = await labOf(sandboxId)
          const student =
            caller?.role === 'student' ? caller.link.student : (record.metadata.student ?? sandboxId)
          const className = caller?.role === 'student' ? caller.link.className : record.metadata.class
          const deadline = deadlineOf(className)
          const submittedAt = new Date().toISOString()
          // Refused before anything is kept: a class that takes no late work keeps none.
          if (
            deadline.late.kind === 'refuse' &&
            lateness(deadline, student, submittedAt, undefined).daysLate > 0
          )
            throw new PlatformError(
              409,
              `the deadline has passed (${dueOf(deadline, student)}) and this class takes no late submissions`,
            )
          let submission: Submission
          try {
            const files = await studentFiles(manager.homeDir(sandboxId), templateDir, lab)
            submission = store.add(
              {
                sandboxId,
                templateID: record.templateID,
                student,
                ...(className ? { className } : {}),
                submittedAt,
              },
              files,
            )
            const grade = await gradings.run(submission, (signal) =>
              gradeSubmission({ manager, templates }, record.templateID, files, signal),
            )
            if (!store.setGrade(submission, grade)) throw new GradingCancelled()
            sendJson(
              res,
              201,
              view({ submission, grade }, caller?.role === 'owner' ? 'all' : feedback, deadline),
            )
          } catch (err) {
            if (err instanceof SubmissionError) throw new PlatformError(400, err.message)
            if (err instanceof NotGradableError) throw new PlatformError(409, err.message)
            // The teacher deleted it meanwhile: nothing of it is kept, so the answer says so.
            if (err instanceof GradingCancelled)
              throw new PlatformError(
                409,
                'this submission was deleted while it was being graded, so nothing of it was kept: submit again for it to count',
              )
            throw err
          }
        },
      },
    },
  ]
}
