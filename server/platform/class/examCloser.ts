import { dueOf } from '../../../src/contract/deadlines'
import type { SandboxManager } from '../sandboxManager'
import type { ClassDeadlines } from './classDeadlines'

/** How often exam mode looks for a deadline that passed: a student gains at most this long. */
const everyMs = 10_000

/**
 * Whether a sandbox of a class in exam mode is past its student's deadline (their extension's,
 * if any): then it stays closed to the student. Its metadata names the class and the student.
 */
export function examIsOver(
  deadlines: ClassDeadlines,
  metadata: Record<string, string>,
  now = Date.now(),
): boolean {
  const className = metadata.class
  if (!className || !metadata.student) return false
  const deadline = deadlines.get(className)
  const due = dueOf(deadline, metadata.student)
  return deadline.examMode && due !== undefined && Date.parse(due) <= now
}

/**
 * Exam mode: once a student's deadline passes, their sandbox of the stack's own is paused (every
 * process frozen by the cgroup freezer: nothing in it can change a file, whoever is root there),
 * and the resume route refuses the student while the deadline stays passed. Each sandbox is
 * paused once per deadline, so a teacher who resumes it to look is not fought; a new extension
 * that passes pauses it again. Returns the pass (for tests and for a deadline just set) and stop.
 */
export function examCloser(deps: {
  deadlines: ClassDeadlines
  manager: Pick<SandboxManager, 'list' | 'pause'>
  log: (line: string) => void
  now?: () => number
}): { pass(): Promise<void>; stop(): void } {
  const now = deps.now ?? Date.now
  let running: Promise<void> | undefined
  const passOnce = async () => {
    const exams = new Set(
      deps.deadlines
        .classes()
        .filter(([, d]) => d.examMode)
        .map(([name]) => name),
    )
    if (exams.size === 0) return
    for (const record of deps.manager.list()) {
      const { class: className, student } = record.metadata
      if (record.state !== 'running' || !className || !student || !exams.has(className)) continue
      if (!examIsOver(deps.deadlines, record.metadata, now())) continue
      const due = dueOf(deps.deadlines.get(className), student) as string
      if (deps.deadlines.examClosedAt(record.sandboxID) === due) continue
      try {
        await deps.manager.pause(record.sandboxID)
        deps.log(`sandbox ${record.sandboxID}: exam mode paused it, ${student}'s deadline (${due}) passed`)
      } catch (err) {
        deps.log(
          `sandbox ${record.sandboxID}: exam mode could not pause it: ${err instanceof Error ? err.message : String(err)}`,
        )
        continue
      }
      deps.deadlines.markExamClosed(record.sandboxID, due)
    }
  }
  // One pass at a time: a slow pause must not start a second one for the same sandbox.
  const pass = () => {
    running ??= passOnce().finally(() => {
      running = undefined
    })
    return running
  }
  const timer = setInterval(() => void pass(), everyMs)
  timer.unref()
  return { pass, stop: () => clearInterval(timer) }
}
