import { FileType } from '../../../../src/gen/filesystem_pb'
import { sandboxUser } from '../../launcher/sandboxEtcFiles'
import type { LabTemplate } from '../../templates/labTemplate'
import type { RuntimeFiles } from '../runtimeFiles'
import { RuntimeFilesError, TooLargeError } from '../runtimeFiles'
import { SubmittedFiles, studentFileRules, tooLarge } from './studentFiles'
import { SubmissionError, type SubmittedFile } from './submissionFiles'

/**
 * A student's work as it is in a sandbox reached only through its runtime (an E2B sandbox): the
 * same files as `studentFiles` takes on the host, by the same rules and bounds, listed with
 * ListDir a folder at a time (so a skipped folder is never walked) and read with GET /files.
 * Links are never followed: envd lists one with its `symlinkTarget`, and it is left out.
 */
export async function runtimeStudentFiles(
  files: RuntimeFiles,
  templateDir: string,
  lab: LabTemplate,
): Promise<SubmittedFile[]> {
  const skip = studentFileRules(templateDir, lab)
  const home = sandboxUser.home
  const gathered = new SubmittedFiles()
  const walk = async (folder: string) => {
    const entries = await files.list(folder ? `${home}/${folder}` : home)
    for (const entry of [...entries].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const path = folder ? `${folder}/${entry.name}` : entry.name
      if (entry.symlinkTarget !== undefined || skip(path)) continue
      if (entry.type === FileType.DIRECTORY) await walk(path)
      else if (entry.type === FileType.FILE) {
        gathered.checkCount()
        if (entry.size > BigInt(gathered.room)) throw tooLarge()
        gathered.add(path, await readOne(files, `${home}/${path}`, path, gathered.room))
      }
    }
  }
  await walk('')
  return gathered.list
}

/** One file's bytes, no more than the submission's room (it may have grown since it was listed). */
async function readOne(files: RuntimeFiles, absolute: string, path: string, room: number) {
  try {
    return await files.read(absolute, room)
  } catch (err) {
    if (err instanceof TooLargeError) throw tooLarge()
    // Gone between the listing and the read: the student changed it meanwhile.
    if (err instanceof RuntimeFilesError && err.status === 404)
      throw new SubmissionError(`${path} changed while it was read: submit again`)
    throw err
  }
}
