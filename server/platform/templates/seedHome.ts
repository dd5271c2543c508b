import { cp, lstat } from 'node:fs/promises'
import { join, relative, sep } from 'node:path'
import { readLabTemplate } from './labTemplate'

/** Where a lab keeps its untouched starting files, inside the sandbox's home; Reset copies from it. */
export const labStartDir = join('.lab', 'start')

/**
 * Copies a template's files into a new sandbox's home. Only folders, regular files and symlinks
 * (as they are, never followed) are copied, and nothing about their host owner: inside the
 * sandbox they belong to its user. A lab (it has `.lab/lab.json`) also gets a second copy in
 * `.lab/start/`, the starting point its Reset restores. A lab's hidden files (`grade.hidden`)
 * are in neither: they stay with the stack, for grading.
 */
export async function seedHome(templateDir: string, homeDir: string): Promise<void> {
  const ownStart = join(templateDir, labStartDir)
  const lab = await readLabTemplate(templateDir)
  const options = {
    recursive: true,
    verbatimSymlinks: true,
    filter: async (source: string) => {
      if (source === ownStart) return false
      const path = relative(templateDir, source).split(sep).join('/')
      if (path !== '' && lab.isHidden(path)) return false
      const stat = await lstat(source)
      return stat.isDirectory() || stat.isFile() || stat.isSymbolicLink()
    },
  }
  await cp(templateDir, homeDir, options)
  const isLab = await lstat(join(templateDir, '.lab', 'lab.json')).then(
    (s) => s.isFile(),
    () => false,
  )
  if (isLab) await cp(templateDir, join(homeDir, labStartDir), options)
}
