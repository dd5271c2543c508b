import { lstat, readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { SubmissionDetail } from '../../../../src/contract/gradebook'
import { globToRegExp } from '../../../../src/contract/labGlob'
import type { LabTemplate } from '../../templates/labTemplate'
import type { GradedSubmission } from './gradebook'
import { maxSubmittedFiles, type SubmittedFile } from './submissionFiles'
import { type DiffFile, maxDiffedBytes, textOf, unifiedDiff } from './unifiedDiff'

/** The most of the files' text one answer carries: beyond, a file is listed without it. */
const maxShownBytes = 4 * 1024 * 1024

/**
 * The lab's starting files that are the student's to change, as a submission would hold them:
 * every regular file of the template but the lab's own (hidden, `readOnly`, `.lab/`); links are
 * not followed.
 */
export async function startingFiles(templateDir: string, lab: LabTemplate): Promise<DiffFile[]> {
  const own = [...(lab.manifest?.readOnly ?? []), '.lab/**'].map(globToRegExp)
  const skip = (path: string) => lab.isHidden(path) || own.some((glob) => glob.test(path))
  const files: DiffFile[] = []
  const walk = async (folder: string) => {
    for (const name of (await readdir(join(templateDir, folder)).catch(() => [])).sort()) {
      const path = folder ? `${folder}/${name}` : name
      if (skip(path) || files.length >= maxSubmittedFiles) continue
      const stat = await lstat(join(templateDir, path)).catch(() => undefined)
      if (stat?.isDirectory()) await walk(path)
      else if (stat?.isFile()) files.push({ path, content: await readFile(join(templateDir, path)) })
    }
  }
  await walk('')
  return files
}

/**
 * A submission for the teacher: its grade in full (the grader's output too), its files with their
 * text where it is text and the answer has room, and a unified diff against the lab's starting
 * files as they are now (the template may have changed since).
 */
export function submissionDetail(
  { submission, grade }: GradedSubmission,
  files: readonly SubmittedFile[],
  starting: readonly DiffFile[],
): SubmissionDetail {
  let shown = 0
  const listed = files.map(({ path, content }): SubmissionDetail['files'][number] => {
    const size = content.byteLength
    const text = size <= maxDiffedBytes ? textOf(content) : undefined
    if (text === undefined) return { path, size, omitted: size > maxDiffedBytes ? 'too large' : 'binary' }
    if (shown + size > maxShownBytes) return { path, size, omitted: 'too large' }
    shown += size
    return { path, size, text }
  })
  return {
    submissionId: submission.id,
    sandboxId: submission.sandboxId,
    lab: submission.templateID,
    student: submission.student,
    ...(submission.className ? { className: submission.className } : {}),
    submittedAt: submission.submittedAt,
    contentHash: submission.contentHash,
    ...(grade ? { grade } : {}),
    files: listed,
    diff: cut(unifiedDiff(starting, files)),
  }
}

/** A diff longer than an answer carries, cut with a line saying so. */
function cut(diff: string): string {
  if (diff.length <= maxShownBytes) return diff
  const kept = diff.slice(0, diff.lastIndexOf('\n', maxShownBytes) + 1)
  return `${kept}… ${diff.length - kept.length} more characters of the diff are left out\n`
}
