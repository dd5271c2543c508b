import { createHash } from 'node:crypto'
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmdirSync,
  writeFileSync,
} from 'node:fs'
import { dirname, join } from 'node:path'
import type { SubmissionView } from '../../../../src/contract/submissions'
import { isE2bSandboxId } from '../../ide/e2bSandboxId'
import { readJsonRecord, writeRecordFile } from '../../recordFile'
import type { Grade } from './gradeSubmission'
import { removeDurably, sweepRemovals } from './removeDurably'
import type { SubmittedFile } from './submissionFiles'

/** A submission's id (its folder's name): the time in base 36, the hash's start, a random part. */
const submissionId = /^[a-z0-9-]{1,64}$/

/**
 * A sandbox id a submission may be kept under: the stack's own (20 lowercase alphanumerics) or an
 * E2B sandbox's (dashes too); neither can name a path out of the store.
 */
const isStoredSandboxId = isE2bSandboxId

/** What is kept of one submission besides its files (and its grade), as the contract has it. */
export type Submission = Omit<SubmissionView, 'grade'>

/**
 * Submissions in the stack's data folder, `submissions/{sandboxId}/{id}/`: `submission.json`,
 * the files as submitted (read-only), and `grade.json` once graded. A submission is never
 * changed: submitting again is another one; only its grade may be written again (a regrade).
 */
export class SubmissionStore {
  private readonly root: string

  constructor(dataDir: string) {
    this.root = join(dataDir, 'submissions')
  }

  /** Keeps a snapshot of `files`; its id sorts by time. */
  add(meta: Omit<Submission, 'id' | 'contentHash' | 'files'>, files: readonly SubmittedFile[]): Submission {
    const sorted = [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    const hash = createHash('sha256')
    for (const { path, content } of sorted) {
      hash.update(`${path}\0${content.byteLength}\0`)
      hash.update(content)
    }
    const id = `${Date.parse(meta.submittedAt).toString(36).padStart(9, '0')}-${hash.copy().digest('hex').slice(0, 8)}-${Math.random().toString(36).slice(2, 8)}`
    const submission: Submission = {
      id,
      ...meta,
      contentHash: `sha256:${hash.digest('hex')}`,
      files: sorted.map((f) => f.path),
    }
    const dir = this.dir(meta.sandboxId, id)
    mkdirSync(join(dir, 'files'), { recursive: true })
    for (const { path, content } of sorted) {
      const target = join(dir, 'files', path)
      mkdirSync(dirname(target), { recursive: true })
      writeFileSync(target, content, { flag: 'wx', mode: 0o400 })
    }
    writeRecordFile(join(dir, 'submission.json'), `${JSON.stringify(submission, null, 2)}\n`)
    chmodSync(join(dir, 'submission.json'), 0o400)
    return submission
  }

  /**
   * Writes (or writes again, for a regrade) a submission's grade. False, and nothing written, when
   * the submission was deleted meanwhile: a grader that ends after the deletion leaves no trace.
   */
  setGrade(submission: Submission, grade: Grade): boolean {
    if (!this.has(submission.sandboxId, submission.id)) return false
    const dir = this.dir(submission.sandboxId, submission.id)
    writeRecordFile(join(dir, 'grade.json'), `${JSON.stringify(grade)}\n`)
    return true
  }

  /** Whether a submission is kept (not deleted). */
  has(sandboxId: string, id: string): boolean {
    return (
      isStoredSandboxId(sandboxId) &&
      submissionId.test(id) &&
      existsSync(join(this.dir(sandboxId, id), 'submission.json'))
    )
  }

  /** A sandbox's submissions, oldest first, each with its grade when it has one. */
  list(sandboxId: string): { submission: Submission; grade?: Grade }[] {
    const folder = join(this.root, sandboxId)
    if (!existsSync(folder)) return []
    sweepRemovals(folder)
    return readdirSync(folder)
      .filter((id) => submissionId.test(id))
      .sort()
      .flatMap((id) => {
        const dir = join(folder, id)
        const submission = readJsonRecord(join(dir, 'submission.json'), 'a submission', (v) =>
          typeof v === 'object' && v !== null && 'contentHash' in v ? (v as Submission) : undefined,
        )
        if (!submission) return []
        const grade = readJsonRecord(join(dir, 'grade.json'), 'a grade', (v) =>
          typeof v === 'object' && v !== null && 'score' in v ? (v as Grade) : undefined,
        )
        return [{ submission, ...(grade ? { grade } : {}) }]
      })
  }

  /** Every sandbox's submissions (those of sandboxes long gone too), oldest first per sandbox. */
  all(): { submission: Submission; grade?: Grade }[] {
    if (!existsSync(this.root)) return []
    return readdirSync(this.root)
      .filter(isStoredSandboxId)
      .sort()
      .flatMap((sandboxId) => this.list(sandboxId))
  }

  /** One submission with its grade, or undefined. */
  get(sandboxId: string, id: string): { submission: Submission; grade?: Grade } | undefined {
    if (!isStoredSandboxId(sandboxId) || !submissionId.test(id)) return undefined
    return this.list(sandboxId).find((entry) => entry.submission.id === id)
  }

  /** A submission's files as they were submitted (for a regrade, or the teacher's reading). */
  files(submission: Submission): SubmittedFile[] {
    const dir = join(this.dir(submission.sandboxId, submission.id), 'files')
    return submission.files.map((path) => ({ path, content: readFileSync(join(dir, path)) }))
  }

  /**
   * Deletes a submission for good (its files, record and grade; the teacher's choice): gone from
   * the disk once this returns, even across a power cut. False when there was no such one.
   */
  remove(sandboxId: string, id: string): boolean {
    if (!this.get(sandboxId, id)) return false
    removeDurably(this.dir(sandboxId, id))
    // The sandbox's folder goes with its last submission.
    const folder = join(this.root, sandboxId)
    if (readdirSync(folder).length === 0) rmdirSync(folder)
    return true
  }

  private dir(sandboxId: string, id: string): string {
    return join(this.root, sandboxId, id)
  }
}
