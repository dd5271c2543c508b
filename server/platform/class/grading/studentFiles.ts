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
  const skip = studentFileRules(templateDir, lab)
  const files = new SubmittedFiles()
  const walk = async (folder: string) => {
    const entries = await readdir(join(home, folder)).catch(() => [])
    for (const name of entries.sort()) {
      const path = folder ? `${folder}/${name}` : name
      if (skip(path)) continue
      const stat = await lstat(join(home, path)).catch(() => undefined)
      if (stat?.isDirectory()) await walk(path)
      else if (stat?.isFile()) {
        files.checkCount()
        files.add(path, await readInside(home, path, files.room))
      }
    }
  }
  await walk('')
  return files.list
}

/**
 * Which paths of a student's home a submission leaves out: the lab's own (`.lab/`, hidden,
 * read-only) and, outside the template's own files, anything under a name starting with `.`.
 * One rule for every sandbox, the stack's own or an E2B one.
 */
export function studentFileRules(templateDir: string, lab: LabTemplate): (path: string) => boolean {
  const own = [...(lab.manifest?.readOnly ?? []), '.lab/**'].map(globToRegExp)
  const inTemplate = (path: string) => existsSync(join(templateDir, path))
  return (path) => {
    const name = path.slice(path.lastIndexOf('/') + 1)
    return (
      lab.isHidden(path) || own.some((glob) => glob.test(path)) || (name.startsWith('.') && !inTemplate(path))
    )
  }
}

/** A submission being gathered, held to its bounds as each file comes. */
export class SubmittedFiles {
  readonly list: SubmittedFile[] = []
  private bytes = 0

  /** Bytes the next file may have before the submission is too large. */
  get room(): number {
    return maxSubmittedBytes - this.bytes
  }

  /** Checks there is room for one more file before it is read. */
  checkCount(): void {
    if (this.list.length >= maxSubmittedFiles)
      throw new SubmissionError(`a submission holds at most ${maxSubmittedFiles} files`)
  }

  add(path: string, content: Uint8Array): void {
    this.checkCount()
    this.bytes += content.byteLength
    if (this.bytes > maxSubmittedBytes) throw tooLarge()
    this.list.push({ path, content })
  }
}

/** The error of a submission past its size. */
export const tooLarge = () =>
  new SubmissionError(`a submission holds at most ${maxSubmittedBytes / 1024 / 1024} MiB`)

async function readInside(home: string, path: string, room: number): Promise<Uint8Array> {
  const file = await open(join(home, path), constants.O_RDONLY | constants.O_NOFOLLOW).catch(() => {
    throw new SubmissionError(`${path} cannot be read`)
  })
  try {
    const where = await readlink(`/proc/self/fd/${file.fd}`)
    if (!where.startsWith(`${home}/`) || !(await file.stat()).isFile())
      throw new SubmissionError(`${path} changed while it was read: submit again`)
    // Not read past the submission's room: a huge file is refused, never held whole.
    if ((await file.stat()).size > room) throw tooLarge()
    return await file.readFile()
  } finally {
    await file.close()
  }
}
