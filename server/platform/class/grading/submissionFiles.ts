import { constants } from 'node:fs'
import { lstat, mkdir, open } from 'node:fs/promises'
import { join } from 'node:path'

/** A student's file as submitted: its path relative to the home folder, and its bytes. */
export interface SubmittedFile {
  path: string
  content: Uint8Array
}

/** A submission that cannot be graded as it is (a bad path, too much). */
export class SubmissionError extends Error {}

export const maxSubmittedFiles = 1000
export const maxSubmittedBytes = 20 * 1024 * 1024

/**
 * Checks a submission's paths and size: each relative to the home folder and staying in it, no
 * path twice, at most `maxSubmittedFiles` files of `maxSubmittedBytes` in all.
 */
export function checkSubmission(files: readonly SubmittedFile[]): void {
  if (files.length > maxSubmittedFiles)
    throw new SubmissionError(`a submission holds at most ${maxSubmittedFiles} files, not ${files.length}`)
  let bytes = 0
  const seen = new Set<string>()
  for (const { path, content } of files) {
    const segments = path.split('/')
    const bad =
      path === '' ||
      path.length > 1024 ||
      path.startsWith('/') ||
      segments.some((s) => s === '' || s === '.' || s === '..') ||
      // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
      /[\u0000-\u001f]/.test(path)
    if (bad) throw new SubmissionError(`${JSON.stringify(path)} is not a path inside the home folder`)
    if (seen.has(path)) throw new SubmissionError(`${path} is submitted twice`)
    seen.add(path)
    bytes += content.byteLength
  }
  if (bytes > maxSubmittedBytes)
    throw new SubmissionError(`a submission holds at most ${maxSubmittedBytes / 1024 / 1024} MiB`)
}

/**
 * Writes submitted files into a home folder on the host, following no link on the way: the
 * template may hold links (to anywhere), and a submitted path through one must not write there.
 * A path that meets a link or a file where a folder should be is a SubmissionError.
 */
export async function writeSubmission(homeDir: string, files: readonly SubmittedFile[]): Promise<void> {
  checkSubmission(files)
  for (const { path, content } of files) {
    const segments = path.split('/')
    let dir = homeDir
    for (const segment of segments.slice(0, -1)) {
      dir = join(dir, segment)
      const stat = await lstat(dir).catch(() => undefined)
      if (!stat) await mkdir(dir, { mode: 0o755 })
      else if (!stat.isDirectory()) throw new SubmissionError(`${path}: ${segment} is not a folder there`)
    }
    const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW
    const file = await open(join(homeDir, path), flags, 0o644).catch((err: NodeJS.ErrnoException) => {
      throw new SubmissionError(`${path} cannot be written there (${err.code ?? err.message})`)
    })
    try {
      await file.writeFile(content)
    } finally {
      await file.close()
    }
  }
}
