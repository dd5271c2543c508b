import { constants, realpathSync } from 'node:fs'
import { cp, lstat, open } from 'node:fs/promises'
import { join, relative, sep } from 'node:path'
import { globToRegExp } from '../../../../src/contract/labGlob'
import type { LabManifest } from '../../../../src/contract/labManifest'
import { sandboxUser } from '../../launcher/sandboxEtcFiles'
import type { SandboxManager } from '../../sandboxManager'
import { type LabTemplate, readLabTemplate } from '../../templates/labTemplate'
import type { TemplateCatalog } from '../../templates/templateCatalog'
import { sandboxCommands } from '../sandboxCommands'
import { graderSlots } from './graderSlots'
import { GradingCancelled } from './gradingJobs'
import { junitResults, ReportError, type TestResult } from './junitResults'
import { checkSubmission, type SubmittedFile, writeSubmission } from './submissionFiles'

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
 * Grades a submission of a lab in a fresh sandbox of its own: the lab's template with the
 * submitted files and then the hidden ones (which win), no outbound network, the lab's command
 * run by `bash -l -c` as the sandbox's user in its home, cut at `grade.timeoutSeconds`; its
 * JUnit report, when the lab names one, gives each test's points. The sandbox is always removed.
 * Aborting `signal` (its submission deleted) takes it out of the graders' line, or kills its
 * sandbox; it then rejects with GradingCancelled, even when the grade was just done.
 */
export async function gradeSubmission(
  { manager, templates }: { manager: SandboxManager; templates: Pick<TemplateCatalog, 'folder'> },
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
    graded = await graderSlots.run(
      () => gradeIn(manager, templateID, templateDir, lab, grade, used, ignored, signal),
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

/** Makes the grader sandbox, runs the lab's command there, reads its report, and removes it. */
async function gradeIn(
  manager: SandboxManager,
  templateID: string,
  templateDir: string,
  lab: LabTemplate,
  grade: NonNullable<LabManifest['grade']>,
  used: readonly SubmittedFile[],
  ignored: string[],
  signal: AbortSignal | undefined,
): Promise<Grade> {
  signal?.throwIfAborted()
  const record = await manager.create({
    templateID,
    timeout: grade.timeoutSeconds + sandboxMarginSeconds,
    metadata: { purpose: 'grader' },
    offline: true,
    background: true,
    addFiles: async (homeDir) => {
      await writeSubmission(homeDir, used)
      await copyHidden(templateDir, homeDir, lab.isHidden)
    },
  })
  const id = record.sandboxID
  // Removed once, by whichever comes first: a cancel (which cuts the command short) or the end.
  let removing: Promise<void> | undefined
  const remove = () => {
    removing ??= Promise.resolve()
      .then(() => manager.kill(id))
      .catch(() => {})
    return removing
  }
  const cancel = () => void remove()
  signal?.addEventListener('abort', cancel, { once: true })
  try {
    signal?.throwIfAborted()
    const route = manager.route(id)
    if (route.kind !== 'running') throw new Error(`the grader sandbox ${id} is ${route.kind}`)
    const timeoutMs = grade.timeoutSeconds * 1000
    const started = Date.now()
    // Below the class's shells and runtimes where the kernel ranks them together (see docs/classroom.md).
    const run = await sandboxCommands(route.runtime).run(
      'nice',
      ['-n', '10', '/bin/bash', '-l', '-c', grade.command],
      {
        cwd: sandboxUser.home,
        timeoutMs,
        tag: 'lab-grade',
      },
    )
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
    // Frozen first: nothing in the sandbox may swap the report for a link while it is read.
    await manager.pause(id)
    let tests: TestResult[]
    try {
      tests = junitResults(await readReport(manager.homeDir(id), grade.report), grade.points)
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

/** Adds the lab's hidden files to a grader's home, over any submitted file of the same path. */
async function copyHidden(templateDir: string, homeDir: string, isHidden: (path: string) => boolean) {
  await cp(templateDir, homeDir, {
    recursive: true,
    verbatimSymlinks: true,
    filter: async (source) => {
      const path = relative(templateDir, source).split(sep).join('/')
      const stat = await lstat(source)
      return stat.isDirectory() || (isHidden(path) && (stat.isFile() || stat.isSymbolicLink()))
    },
  })
}

/**
 * Reads the report the command wrote, as a regular file inside the home and no link to elsewhere
 * (the host would follow it), of at most `maxReportBytes`. Anything else is a ReportError.
 */
async function readReport(homeDir: string, report: string): Promise<string> {
  const path = join(homeDir, report)
  let real: string
  try {
    real = realpathSync(path)
  } catch {
    throw new ReportError(`the command wrote no report at ${report}`)
  }
  if (!real.startsWith(`${realpathSync(homeDir)}${sep}`))
    throw new ReportError(`the report ${report} leads out of the home folder`)
  const file = await open(real, constants.O_RDONLY | constants.O_NOFOLLOW).catch(() => {
    throw new ReportError(`the report ${report} cannot be read`)
  })
  try {
    const stat = await file.stat()
    if (!stat.isFile()) throw new ReportError(`the report ${report} is not a file`)
    if (stat.size > maxReportBytes)
      throw new ReportError(`the report ${report} is larger than ${maxReportBytes / 1024 / 1024} MiB`)
    const bytes = Buffer.alloc(stat.size)
    await file.read(bytes, 0, stat.size, 0)
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
    return text
  } catch (err) {
    if (err instanceof TypeError) throw new ReportError(`the report ${report} is not UTF-8 text`)
    throw err
  } finally {
    await file.close()
  }
}
