import { constants, realpathSync } from 'node:fs'
import { cp, lstat, open } from 'node:fs/promises'
import { join, relative, sep } from 'node:path'
import { sandboxUser } from '../../launcher/sandboxEtcFiles'
import type { SandboxManager } from '../../sandboxManager'
import { sandboxCommands } from '../sandboxCommands'
import { graderSlots } from './graderSlots'
import type { Graders } from './graders'
import { ReportError } from './junitResults'
import { writeSubmission } from './submissionFiles'

/**
 * Grader sandboxes of the stack's own: made by its sandbox manager with their files written on
 * the host before they start (following no link of the template), with no network out, behind
 * the class (a tenth of a student's CPU weight, and `nice`), and frozen before their report is read
 * from the host. As many at once as the machine has cores.
 */
export function localGraders(manager: SandboxManager): Graders {
  return {
    slots: graderSlots,
    async create({ templateID, timeoutSeconds, submitted, templateDir, isHidden }) {
      const { sandboxID: id } = await manager.create({
        templateID,
        timeout: timeoutSeconds,
        metadata: { purpose: 'grader' },
        offline: true,
        background: true,
        addFiles: async (homeDir) => {
          await writeSubmission(homeDir, submitted)
          await copyHidden(templateDir, homeDir, isHidden)
        },
      })
      return {
        id,
        async run(command, timeoutMs) {
          const route = manager.route(id)
          if (route.kind !== 'running') throw new Error(`the grader sandbox ${id} is ${route.kind}`)
          // Below the class's shells and runtimes where the kernel ranks them together (see docs/classroom.md).
          return sandboxCommands(route.runtime).run('nice', ['-n', '10', '/bin/bash', '-l', '-c', command], {
            cwd: sandboxUser.home,
            timeoutMs,
            tag: 'lab-grade',
          })
        },
        async readReport(path, maxBytes) {
          // Frozen first: nothing in the sandbox may swap the report for a link while it is read.
          await manager.pause(id)
          return readReport(manager.homeDir(id), path, maxBytes)
        },
        kill: async () => {
          await manager.kill(id)
        },
      }
    },
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
 * (the host would follow it), of at most `maxBytes`. Anything else is a ReportError.
 */
async function readReport(homeDir: string, report: string, maxBytes: number): Promise<Uint8Array> {
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
    if (stat.size > maxBytes)
      throw new ReportError(`the report ${report} is larger than ${maxBytes / 1024 / 1024} MiB`)
    const bytes = Buffer.alloc(stat.size)
    await file.read(bytes, 0, stat.size, 0)
    return bytes
  } finally {
    await file.close()
  }
}
