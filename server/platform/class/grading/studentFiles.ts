import { constants, existsSync, realpathSync } from 'node:fs'
import { lstat, open, readdir, readlink } from 'node:fs/promises'
import { join } from 'node:path'
import { globToRegExp } from '../../../../src/contract/labGlob'
import type { LabTemplate } from '../../templates/labTemplate'
import { maxSubmittedBytes, maxSubmittedFiles, SubmissionError, type SubmittedFile } from './submissionFiles'

/**
 * A student's work as it is in their sandbox's home (on the host): every regular file but the
 * lab's own (`.lab/`, hidden, read-only) and, outside the template's own files, anything under a
 * name starting with `.` (a shell's history, caches). Links are never followed, and each file is
 * read only once its open descriptor is known to be inside the home, so nothing the student swaps
 * meanwhile makes the host read elsewhere.
 */
export async function studentFiles(
  homeDir: string,
  templateDir: string,
  lab: LabTemplate,
): Promise<SubmittedFile[]> {
  const home = realpathSync(homeDir)
  const own = [...(lab.manifest?.readOnly ?? []), '.lab/**'].map(globToRegExp)
  const skip = (path: string) => lab.isHidden(path) || own.some((glob) => glob.test(path))
  const inTemplate = (path: string) => existsSync(join(templateDir, path))
  const files: SubmittedFile[] = []
  let bytes = 0
  const walk = async (folder: string) => {
    const entries = await readdir(join(home, folder)).catch(() => [])
    for (const name of entries.sort()) {
      const path = folder ? `${folder}/${name}` : name
      if (skip(path) || (name.startsWith('.') && !inTemplate(path))) continue
      const stat = await lstat(join(home, path)).catch(() => undefined)
      if (stat?.isDirectory()) await walk(path)
      else if (stat?.isFile()) {
        if (files.length >= maxSubmittedFiles)
          throw new SubmissionError(`a submission holds at most ${maxSubmittedFiles} files`)
        const content = await readInside(home, path)
        bytes += content.byteLength
        if (bytes > maxSubmittedBytes)
          throw new SubmissionError(`a submission holds at most ${maxSubmittedBytes / 1024 / 1024} MiB`)
        files.push({ path, content })
      }
    }
  }
  await walk('')
  return files
}

async function readInside(home: string, path: string): Promise<Uint8Array> {
  const file = await open(join(home, path), constants.O_RDONLY | constants.O_NOFOLLOW).catch(() => {
    throw new SubmissionError(`${path} cannot be read`)
  })
  try {
    const where = await readlink(`/proc/self/fd/${file.fd}`)
    if (!where.startsWith(`${home}/`) || !(await file.stat()).isFile())
      throw new SubmissionError(`${path} changed while it was read: submit again`)
    return await file.readFile()
  } finally {
    await file.close()
  }
}
