import { statSync } from 'node:fs'
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { PlatformError } from '../platformError'

/** The template every local platform has: the host system, read-only, with an empty home. */
export const baseTemplate = 'base'

/** E2B's alias rules: lowercase letters, digits, '-' and '_'; never a path ('..', '/'). */
export function isTemplateId(value: string): boolean {
  return /^[a-z0-9][a-z0-9_-]{0,63}$/.test(value)
}

/**
 * The local platform's templates: `base`, plus one per folder of `dir` (e.g. the project's
 * `labs/`), named after the folder and holding the files a new sandbox's home starts with.
 * The folder is looked at on every create, so a template added meanwhile needs no restart.
 */
export class TemplateCatalog {
  constructor(private readonly dir: string | undefined) {}

  /** Every template id, `base` first. */
  async ids(): Promise<string[]> {
    if (!this.dir) return [baseTemplate]
    const entries = await readdir(this.dir, { withFileTypes: true }).catch(() => [])
    const folders = entries.filter((e) => e.isDirectory() && isTemplateId(e.name)).map((e) => e.name)
    return [baseTemplate, ...folders.filter((name) => name !== baseTemplate).sort()]
  }

  /**
   * The folder of starting files for `id`: undefined for `base`; a 400 for an id that is not a
   * valid name, a 404 (E2B's answer) for one that does not exist here.
   */
  async folder(id: string): Promise<string | undefined> {
    if (id === baseTemplate) return undefined
    if (!isTemplateId(id)) {
      throw new PlatformError(
        400,
        `template id ${JSON.stringify(id)} is not valid: use lowercase letters, digits, '-' and '_' (at most 64)`,
      )
    }
    const folder = this.dir && join(this.dir, id)
    if (folder && isFolder(folder)) return folder
    const known = (await this.ids()).map((t) => `'${t}'`).join(', ')
    throw new PlatformError(404, `template '${id}' not found: this local platform has ${known}`)
  }
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}
