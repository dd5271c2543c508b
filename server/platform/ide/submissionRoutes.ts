import { type ClassDeadline, dueOf, lateness, noDeadline } from '../../../src/contract/deadlines'
import type { LabManifest } from '../../../src/contract/labManifest'
import { sendJson } from '../api/httpJson'
import type { ClassDeadlines } from '../class/classDeadlines'
import { type Graders, GraderUnavailable } from '../class/grading/graders'
import { type Grade, gradeSubmission, NotGradableError } from '../class/grading/gradeSubmission'
import { GradingCancelled, type GradingJobs } from '../class/grading/gradingJobs'
import { localGraders } from '../class/grading/localGraders'
import { remoteGraders } from '../class/grading/remoteGraders'
import { runtimeStudentFiles } from '../class/grading/runtimeStudentFiles'
import { studentFiles } from '../class/grading/studentFiles'
import { SubmissionError, type SubmittedFile } from '../class/grading/submissionFiles'
import type { Submission, SubmissionStore } from '../class/grading/submissionStore'
import { runtimeFiles } from '../class/runtimeFiles'
import { isSandboxId } from '../ids'
import { PlatformError } from '../platformError'
import type { SandboxManager } from '../sandboxManager'
import { type LabTemplate, readLabTemplate } from '../templates/labTemplate'
import type { TemplateCatalog } from '../templates/templateCatalog'
import { E2bClient } from './e2bClient'
import { isE2bSandboxId } from './e2bSandboxId'
import type { IdeRoute } from './ideRoute'
import { remoteSession } from './remoteSession'
import { isRemoteId, type RemoteStore } from './remoteStore'

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

/** A graded lab's sandbox, wherever it is: what it is, how its work is read, where it is graded. */
interface LabSandbox {
  sandboxId: string
  /** The E2B remote it is on; absent for the stack's own. */
  remoteId?: string
  /** The lab's template on the stack, which holds its manifest and hidden files. */
  templateID: string
  /** `class` and `student`, as the class was made with. */
  metadata: Record<string, string>
  templateDir: string
  lab: LabTemplate
  feedback: Feedback
  /** The student's work as it is now in the sandbox. */
  files(): Promise<SubmittedFile[]>
  graders: Graders
}

/** The graded lab of a template of the stack's, or undefined. */
async function gradedLab(templates: Pick<TemplateCatalog, 'folder'>, templateID: string) {
  const templateDir = await templates.folder(templateID).catch(() => undefined)
  const lab = templateDir ? await readLabTemplate(templateDir) : undefined
  const feedback = lab?.manifest?.grade?.feedback
  return templateDir && lab && feedback ? { templateID, templateDir, lab, feedback } : undefined
}

/**
 * Submissions of a graded lab's sandbox, the stack's own (`/sandboxes/{id}/submissions`) or an
 * E2B remote's (`/remotes/{remoteId}/sandboxes/{id}/submissions`): its student (their join
 * link's session) or the teacher submits the work as it is in the sandbox and gets it graded at
 * once; each reads that sandbox's submissions. Both are kept in the same store and graded by
 * the same code, in a grader sandbox where the class's sandboxes are. Another student's sandbox
 * is 403 (the API's own-sandbox rule).
 */
export function submissionRoutes(deps: {
  manager: SandboxManager
  templates: Pick<TemplateCatalog, 'folder'>
  store: SubmissionStore
  /** The gradings under way, which deleting a submission stops. */
  gradings: GradingJobs
  /** The classes' deadlines: none when absent. */
  deadlines?: ClassDeadlines
  /** The E2B remotes whose classes are graded here too. */
  remotes?: RemoteStore
}): IdeRoute[] {
  const { manager, templates, store, gradings } = deps
  const deadlineOf = (className: string | undefined) =>
    className && deps.deadlines ? deps.deadlines.get(className) : noDeadline
  const notGraded = () => new PlatformError(409, 'this sandbox is not of a graded lab')

  const localLab = async (params: string[]): Promise<LabSandbox> => {
    const sandboxId = params[0] ?? ''
    if (!isSandboxId(sandboxId)) throw new PlatformError(400, 'invalid sandbox id')
    const record = manager.get(sandboxId)
    const graded = await gradedLab(templates, record.templateID)
    if (!graded) throw notGraded()
    return {
      sandboxId,
      ...graded,
      metadata: record.metadata,
      files: () => studentFiles(manager.homeDir(sandboxId), graded.templateDir, graded.lab),
      graders: localGraders(manager),
    }
  }

  const remoteLab = async (params: string[]): Promise<LabSandbox> => {
    const remoteId = params[0] ?? ''
    const sandboxId = params[1] ?? ''
    if (!isRemoteId(remoteId)) throw new PlatformError(400, 'invalid remote id')
    if (!isE2bSandboxId(sandboxId)) throw new PlatformError(400, 'invalid sandbox id')
    if (!deps.remotes) throw new PlatformError(404, `no E2B remote '${remoteId}': add it again`)
    const remote = deps.remotes.get(remoteId)
    const detail = await new E2bClient(remote).sandbox(sandboxId)
    // The lab is the stack's template of the E2B template's name (its alias, else its id):
    // the stack keeps the manifest and the hidden files, which the E2B template must not hold.
    let graded: Awaited<ReturnType<typeof gradedLab>>
    for (const name of [detail.alias, detail.templateID])
      if (name && !graded) graded = await gradedLab(templates, name)
    if (!graded)
      throw new PlatformError(
        409,
        `this sandbox is not of a graded lab of this stack: its E2B template '${detail.alias ?? detail.templateID ?? '?'}' has no lab with grade among the stack's templates`,
      )
    const lab = graded
    return {
      sandboxId,
      remoteId,
      ...lab,
      metadata: detail.metadata ?? {},
      files: async () => {
        if (detail.state !== 'running')
          throw new PlatformError(409, 'this sandbox is paused: resume it, then submit')
        const { runtimeUrl, accessToken } = remoteSession(remote, detail)
        try {
          return await runtimeStudentFiles(
            runtimeFiles({ runtimeUrl, accessToken }),
            lab.templateDir,
            lab.lab,
          )
        } catch (err) {
          if (err instanceof SubmissionError || err instanceof PlatformError) throw err
          throw new PlatformError(
            502,
            `the sandbox's files could not be read on E2B: ${err instanceof Error ? err.message : String(err)}`,
          )
        }
      },
      graders: remoteGraders(remote),
    }
  }

  const routesFor = (
    pattern: RegExp,
    labOf: (params: string[]) => Promise<LabSandbox>,
    sandboxOf?: IdeRoute['sandboxOf'],
  ): IdeRoute => ({
    pattern,
    students: 'own-sandbox',
    ...(sandboxOf ? { sandboxOf } : {}),
    methods: {
      GET: async (_req, res, params, caller) => {
        const { sandboxId, feedback } = await labOf(params)
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
        const sandbox = await labOf(params)
        const { sandboxId, templateID, metadata, feedback } = sandbox
        const student = caller?.role === 'student' ? caller.link.student : (metadata.student ?? sandboxId)
        const className = caller?.role === 'student' ? caller.link.className : metadata.class
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
          const files = await sandbox.files()
          submission = store.add(
            {
              sandboxId,
              ...(sandbox.remoteId ? { remoteId: sandbox.remoteId } : {}),
              templateID,
              student,
              ...(className ? { className } : {}),
              submittedAt,
            },
            files,
          )
          const grade = await gradings.run(submission, (signal) =>
            gradeSubmission({ graders: sandbox.graders, templates }, templateID, files, signal),
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
          // Kept, ungraded: the teacher's regrade grades it once graders can be made again.
          if (err instanceof GraderUnavailable)
            throw new PlatformError(503, `submitted, but not graded: ${err.message}`)
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
  })

  return [
    routesFor(/^\/sandboxes\/([^/]+)\/submissions$/, localLab),
    routesFor(/^\/remotes\/([^/]+)\/sandboxes\/([^/]+)\/submissions$/, remoteLab, (params) => ({
      remoteId: params[0] ?? '',
      sandboxId: params[1] ?? '',
    })),
  ]
}
