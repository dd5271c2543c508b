import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { globToRegExp } from '../../../src/contract/labGlob'
import { type LabManifest, parseLabManifest } from '../../../src/contract/labManifest'
import { labManifestPath } from '../../../src/contract/labPaths'

/** A template folder as a lab: its manifest (when it has a good one) and what of it is hidden. */
export interface LabTemplate {
  /** Undefined for a template that is not a lab, or whose manifest has problems (the panel lists them). */
  manifest: LabManifest | undefined
  /** Whether a path of the template ('/' separated, relative to it) is one of `grade.hidden`'s. */
  isHidden(path: string): boolean
}

/** A lab's manifest cannot be read while it names files to hide: nothing may be copied blindly. */
export class HiddenFilesUnknownError extends Error {}

/**
 * Reads a template folder's lab manifest. A manifest with problems but a `grade` in it throws a
 * HiddenFilesUnknownError: which files are hidden cannot be told, so none of them may leave.
 */
export async function readLabTemplate(templateDir: string): Promise<LabTemplate> {
  const text = await readFile(join(templateDir, labManifestPath), 'utf8').catch(() => undefined)
  if (text === undefined) return { manifest: undefined, isHidden: () => false }
  let manifest: LabManifest
  try {
    manifest = parseLabManifest(text)
  } catch (err) {
    if (mentionsGrade(text)) {
      throw new HiddenFilesUnknownError(
        `the lab's hidden files cannot be told, so no sandbox is made from it: ${err instanceof Error ? err.message : String(err)}`,
      )
    }
    return { manifest: undefined, isHidden: () => false }
  }
  const hidden = (manifest.grade?.hidden ?? []).map(globToRegExp)
  return { manifest, isHidden: (path) => hidden.some((glob) => glob.test(path)) }
}

/** Whether a manifest that does not parse as a lab may still have meant to hide files. */
function mentionsGrade(text: string): boolean {
  try {
    const json: unknown = JSON.parse(text)
    return typeof json === 'object' && json !== null && 'grade' in json
  } catch {
    // Not even JSON: it may be a grade with a typo in it.
    return /"grade"/.test(text)
  }
}
