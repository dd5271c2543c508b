import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { FileType } from '../../../../src/gen/filesystem_pb'
import { E2bClient } from '../../ide/e2bClient'
import { remoteSession } from '../../ide/remoteSession'
import type { StoredRemote } from '../../ide/remoteStore'
import { sandboxUser } from '../../launcher/sandboxEtcFiles'
import { PlatformError } from '../../platformError'
import { RuntimeFilesError, runtimeFiles, TooLargeError } from '../runtimeFiles'
import { type RuntimeAddress, sandboxCommands } from '../sandboxCommands'
import { Slots } from './graderSlots'
import type { GraderSandbox, Graders } from './graders'
import { ReportError } from './junitResults'
import type { SubmittedFile } from './submissionFiles'

/**
 * How many graders run at once on E2B, per stack. Not the machine's cores (they are E2B's), but
 * the team's concurrent sandboxes, which the class's own already use.
 */
export const remoteGraderSlots = new Slots(8)

/**
 * Grader sandboxes on an E2B remote, through E2B's API with the key the stack keeps and each
 * sandbox's runtime API only: POST /sandboxes from the lab's template (no internet access,
 * `purpose: grader`, killed at a short timeout), the submitted and then the hidden files
 * uploaded with POST /files, the command started with process.Start, the report read with Stat
 * and GET /files, and DELETE /sandboxes/{id} after. The hidden files go from the stack to the
 * grader only: the E2B template holds none of them.
 */
export function remoteGraders(remote: StoredRemote): Graders {
  const client = new E2bClient(remote)
  return {
    slots: remoteGraderSlots,
    async create({ templateID, timeoutSeconds, submitted, templateDir, isHidden }) {
      const id = await client.create({
        templateId: templateID,
        timeoutSeconds,
        metadata: { purpose: 'grader' },
        grader: true,
      })
      const kill = async () => {
        await client.kill(id).catch((err: unknown) => {
          // Gone already (its timeout came): nothing is left running, which is what was asked.
          if (!(err instanceof PlatformError && err.status === 404)) throw err
        })
      }
      try {
        const { runtimeUrl, accessToken } = remoteSession(remote, await client.sandbox(id))
        const runtime: RuntimeAddress = { runtimeUrl, accessToken }
        const files = runtimeFiles(runtime)
        // The hidden files last: they win over any submitted file of the same path.
        for (const file of [...submitted, ...(await hiddenFiles(templateDir, isHidden))])
          await files.write(`${sandboxUser.home}/${file.path}`, file.content).catch((err: unknown) => {
            throw new Error(`${file.path} could not be uploaded to it: ${reason(err)}`)
          })
        return graderOn(id, runtime, kill)
      } catch (err) {
        await kill().catch(() => {})
        throw err
      }
    },
  }
}

/** What grading does in a grader sandbox on E2B, through its runtime. */
function graderOn(id: string, runtime: RuntimeAddress, kill: () => Promise<void>): GraderSandbox {
  const files = runtimeFiles(runtime)
  const home = sandboxUser.home
  return {
    id,
    kill,
    async run(command, timeoutMs) {
      try {
        return await sandboxCommands(runtime).run('/bin/bash', ['-l', '-c', command], {
          cwd: home,
          timeoutMs,
          tag: 'lab-grade',
        })
      } catch (err) {
        throw new PlatformError(502, `the grader sandbox ${id} on E2B stopped answering: ${reason(err)}`)
      }
    },
    async readReport(report, maxBytes) {
      const path = `${home}/${report}`
      const entry = await files.stat(path)
      if (!entry) throw new ReportError(`the command wrote no report at ${report}`)
      // envd gives a link's resolved target: a report may be a link within the home, no further.
      if (entry.symlinkTarget !== undefined && !entry.symlinkTarget.startsWith(`${home}/`))
        throw new ReportError(`the report ${report} leads out of the home folder`)
      if (entry.type !== FileType.FILE) throw new ReportError(`the report ${report} is not a file`)
      const tooLarge = () =>
        new ReportError(`the report ${report} is larger than ${maxBytes / 1024 / 1024} MiB`)
      if (entry.size > BigInt(maxBytes)) throw tooLarge()
      try {
        return await files.read(entry.symlinkTarget ?? path, maxBytes)
      } catch (err) {
        if (err instanceof TooLargeError) throw tooLarge()
        if (err instanceof RuntimeFilesError && err.status === 404)
          throw new ReportError(`the command wrote no report at ${report}`)
        throw err
      }
    },
  }
}

/** The lab's hidden files on the stack: regular files only (a link cannot be uploaded as one). */
async function hiddenFiles(
  templateDir: string,
  isHidden: (path: string) => boolean,
): Promise<SubmittedFile[]> {
  const found: SubmittedFile[] = []
  const walk = async (folder: string) => {
    const entries = await readdir(join(templateDir, folder), { withFileTypes: true })
    for (const entry of entries) {
      const path = folder ? `${folder}/${entry.name}` : entry.name
      if (entry.isDirectory()) await walk(path)
      else if (entry.isFile() && isHidden(path))
        found.push({ path, content: await readFile(join(templateDir, path)) })
    }
  }
  await walk('')
  return found
}

function reason(err: unknown): string {
  return err instanceof Error ? err.message : String(err)
}
