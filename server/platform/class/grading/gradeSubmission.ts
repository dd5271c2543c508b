import { globToRegExp } from '../../../../src/contract/labGlob'
import type { LabManifest } from '../../../../src/contract/labManifest'
import { type LabTemplate, readLabTemplate } from '../../templates/labTemplate'
import type { TemplateCatalog } from '../../templates/templateCatalog'
import { type GraderSandbox, type Graders, GraderUnavailable } from './graders'
import { GradingCancelled } from './gradingJobs'
import { junitResults, ReportError, type TestResult } from './junitResults'
import { checkSubmission, SubmissionError, type SubmittedFile } from './submissionFiles'

/** A submission's grade. */
export interface Grade {
  /** Points earned, of `maxScore`. */
  score: number
  maxScore: number
  /** Each test of the report; none without a report (exit status 0 is then full marks, of 1). */
  tests: TestResult[]
  /** Why the submission earned nothing whatever its tests say: cut at the time limit, no report, a bad one. */
  problem?: string
  /** The command's exit status (-1 when cut), and the runtime's words for its end. */
  exitCode: number
  status: string
  /** The last 8 KiB of the command's output, for the teacher. */
  output: string
  /** Submitted paths the grader did not use: the lab's own (hidden, read-only, `.lab/`) stand instead. */
  ignored: string[]
}

/** A lab that cannot grade (not a lab, or without `grade`). */
export class NotGradableError extends Error {}

/** The most of a report read: a runner's report of a few thousand tests fits many times over. */
export const maxReportBytes = 4 * 1024 * 1024

/** Time the grader sandbox outlives the command by, should this process fail to remove it. */
const sandboxMarginSeconds = 60

/**
 * Grades a submission of a lab in a fresh sandbox of its own, made by `graders` (the stack's own
 * or an E2B remote's): the lab's template with the submitted files and then the hidden ones
 * (which win), no outbound network, the lab's command run by `bash -l -c` as the sandbox's user
 * in its home, cut at `grade.timeoutSeconds`; its JUnit report, when the lab names one, gives
 * each test's points. The sandbox is always removed. A grader sandbox that cannot be made is a
 * GraderUnavailable with the platform's reason. Aborting `signal` (its submission deleted) takes
 * it out of the graders' line, or kills its sandbox; it then rejects with GradingCancelled, even
 * when the grade was just done.
 */
export async function gradeSubmission(
  { graders, templates }: { graders: Graders; templates: Pick<TemplateCatalog, 'folder'> },
  templateID: string,
  files: readonly SubmittedFile[],
  signal?: AbortSignal,
): Promise<Grade> {
  checkSubmission(files)
  const templateDir = await templates.folder(templateID)
  const lab = templateDir ? await readLabTemplate(templateDir) : undefined
  const grade = lab?.manifest?.grade
  if (!templateDir || !lab || !grade)
    throw new NotGradableError(`template '${templateID}' is not a graded lab`)
  const own = [...(lab.manifest?.readOnly ?? []), '.lab/**'].map(globToRegExp)
  const isLabs = (path: string) => lab.isHidden(path) || own.some((glob) => glob.test(path))
  const used = files.filter((f) => !isLabs(f.path))
  const ignored = files.filter((f) => isLabs(f.path)).map((f) => f.path)
  // The sandbox's whole life takes a slot: graders wait their turn rather than share the cores.
  let graded: Grade
  try {
    graded = await graders.slots.run(
      () => gradeIn(graders, { templateID, templateDir, lab, grade, used, ignored }, signal),
      signal,
    )
  } catch (err) {
    // Whatever failed once its sandbox was killed under it, the reason is the deletion.
    if (signal?.aborted) throw new GradingCancelled()
    throw err
  }
  if (signal?.aborted) throw new GradingCancelled()
  return graded
}

/** One grading's lab and files. */
interface Grading {
  templateID: string
  templateDir: string
  lab: LabTemplate
  grade: NonNullable<LabManifest['grade']>
  used: readonly SubmittedFile[]
  ignored: string[]
}

/** Makes the grader sandbox, runs the lab's command there, reads its report, and removes it. */
async function gradeIn(graders: Graders, grading: Grading, signal: AbortSignal | undefined): Promise<Grade> {
  const { templateID, templateDir, lab, grade, used, ignored } = grading
  signal?.throwIfAborted()
  let sandbox: GraderSandbox
  try {
    sandbox = await graders.create({
      templateID,
      timeoutSeconds: grade.timeoutSeconds + sandboxMarginSeconds,
      submitted: used,
      templateDir,
      isHidden: lab.isHidden,
    })
  } catch (err) {
    if (err instanceof SubmissionError) throw err
    const why = err instanceof Error ? err.message : String(err)
    throw new GraderUnavailable(`no grader sandbox could be made: ${why}`)
  }
  // Removed once, by whichever comes first: a cancel (which cuts the command short) or the end.
  let removing: Promise<void> | undefined
  const remove = () => {
    removing ??= Promise.resolve()
      .then(() => sandbox.kill())
      .catch(() => {})
    return removing
  }
  const cancel = () => void remove()
  signal?.addEventListener('abort', cancel, { once: true })
  try {
    signal?.throwIfAborted()
    const timeoutMs = grade.timeoutSeconds * 1000
    const started = Date.now()
    const run = await sandbox.run(grade.command, timeoutMs)
    const ran = { exitCode: run.exitCode, status: run.status, output: run.output, ignored }
    // Cut by the runtime's deadline, or killed by it just as the deadline came.
    if (run.status.startsWith('timed out') || Date.now() - started >= timeoutMs) {
      return {
        score: 0,
        maxScore: 0,
        tests: [],
        problem: `cut at its time limit of ${grade.timeoutSeconds} s`,
        ...ran,
      }
    }
    if (!grade.report) {
      return { score: run.exitCode === 0 ? 1 : 0, maxScore: 1, tests: [], ...ran }
    }
    let tests: TestResult[]
    try {
      tests = junitResults(
        utf8(await sandbox.readReport(grade.report, maxReportBytes), grade.report),
        grade.points,
      )
    } catch (err) {
      if (!(err instanceof ReportError)) throw err
      return { score: 0, maxScore: 0, tests: [], problem: err.message, ...ran }
    }
    const sum = (pick: (t: TestResult) => number) => tests.reduce((total, t) => total + pick(t), 0)
    return { score: sum((t) => t.earned), maxScore: sum((t) => t.points), tests, ...ran }
  } finally {
    signal?.removeEventListener('abort', cancel)
    await remove()
  }
}

/** A report's text: UTF-8 or a ReportError. */
function utf8(bytes: Uint8Array, report: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    throw new ReportError(`the report ${report} is not UTF-8 text`)
  }
}
