// Checks every import of src/, server/ and packages/ against the table of layers (scripts/layers.ts):
//   tsx scripts/checkLayers.ts        (part of `npm run lint` and `npm test`)
// Prints one line per broken rule, with the table's reasons, and exits 1 when there is any.
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, posix, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type Layer, layers, type PackageRule, packageRules } from './layers'

/** An import that breaks a rule of the table. */
export interface Violation {
  file: string
  line: number
  specifier: string
  message: string
}

const sourceFile = /\.(ts|tsx|mts)$/
const checkedRoots = ['src', 'server', 'packages']

/**
 * The modules a file imports, with their lines: static imports and re-exports (type-only ones
 * too: a type is a dependency as much as a value), side-effect imports and `import()`.
 */
export function importsOf(source: string): { specifier: string; line: number }[] {
  const code = withoutComments(source)
  const found: { specifier: string; line: number }[] = []
  const patterns = [
    /(?:^|[;\n}])\s*(?:import|export)\s+(?:type\s+)?[^'";]*?\bfrom\s*['"]([^'"]+)['"]/g,
    /(?:^|[;\n}])\s*import\s*['"]([^'"]+)['"]/g,
    /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  ]
  for (const pattern of patterns)
    for (const match of code.matchAll(pattern)) {
      const specifier = match[1] as string
      const at = match.index + match[0].lastIndexOf(specifier)
      found.push({ specifier, line: code.slice(0, at).split('\n').length })
    }
  return found.sort((a, b) => a.line - b.line)
}

/** The source with comments blanked out (newlines kept, so lines still count), strings left alone. */
function withoutComments(source: string): string {
  let out = ''
  let i = 0
  while (i < source.length) {
    const c = source[i] as string
    const next = source[i + 1]
    if (c === '/' && next === '/') {
      while (i < source.length && source[i] !== '\n') i++
    } else if (c === '/' && next === '*') {
      const end = source.indexOf('*/', i + 2)
      const stop = end < 0 ? source.length : end + 2
      out += source.slice(i, stop).replace(/[^\n]/g, ' ')
      i = stop
    } else if (c === '"' || c === "'" || c === '`') {
      let j = i + 1
      while (j < source.length && source[j] !== c) j += source[j] === '\\' ? 2 : 1
      out += source.slice(i, j + 1)
      i = j + 1
    } else {
      out += c
      i++
    }
  }
  return out
}

/** The layer a path (relative to the root, with `/`) belongs to: the most specific folder. */
export function layerOf(path: string, table: readonly Layer[] = layers): Layer | undefined {
  let best: Layer | undefined
  for (const layer of table)
    if (belongsTo(path, layer) && (!best || layer.folder.length > best.folder.length)) best = layer
  return best
}

function belongsTo(path: string, layer: Layer): boolean {
  if (layer.filesOnly) return posix.dirname(path) === layer.folder
  return inAny(path, [layer.folder])
}

/** The unit of a layer whose sub-folders stand apart (`src/features/editor`), or undefined. */
function unitOf(path: string, layer: Layer): string | undefined {
  if (!layer.unitsApart) return undefined
  const rest = path.slice(layer.folder.length + 1).split('/')
  return rest.length > 1 ? `${layer.folder}/${rest[0]}` : undefined
}

/** A package's name from a specifier (`@scope/name/sub` → `@scope/name`), or undefined for a path. */
function packageName(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('/')) return undefined
  const parts = specifier.split('/')
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]
}

function packageMatches(name: string, pattern: string): boolean {
  return pattern.endsWith('/*') ? name.startsWith(pattern.slice(0, -1)) : name === pattern
}

/** Whether `path` lies in one of `folders` (a layer's folder, or one under it). */
function inAny(path: string, folders: readonly string[]): boolean {
  return folders.some((folder) => path === folder || path.startsWith(`${folder}/`))
}

const isTestCode = (file: string) => /\.test\.tsx?$/.test(file) || file.split('/').includes('testing')

/** A layer's path as messages name it: a folder with its slash, a file as it is. */
const named = (path: string) => (sourceFile.test(path) ? path : `${path}/`)

const say = (layer: Layer) => `${named(layer.folder)} is ${layer.why}`

/** What is wrong with one import of `file` (a root-relative path), if anything. */
export function checkImport(
  file: string,
  specifier: string,
  table: readonly Layer[] = layers,
  rules: readonly PackageRule[] = packageRules,
): string | undefined {
  const from = layerOf(file, table)
  if (!from) return undefined
  const name = packageName(specifier)
  if (name !== undefined) {
    const rule = rules.find((r) => r.packages.some((p) => packageMatches(name, p)))
    // A rule names layers, or units inside one (src/features/terminal).
    const allowed = rule?.onlyIn.some(
      (folder) =>
        folder === from.folder || (folder.startsWith(`${from.folder}/`) && file.startsWith(`${folder}/`)),
    )
    if (rule && !allowed)
      return `${name} may be imported only in ${rule.onlyIn.map(named).join(', ')}: ${rule.why}`
    return undefined
  }
  // Tests and their fixtures may reach across layers: a protocol test runs the real runtime.
  if (isTestCode(file)) return undefined
  const target = posix.normalize(posix.join(posix.dirname(file), specifier))
  // Specifiers leave out the extension: a layer that is one file is found by its own name.
  const to = [target, `${target}.ts`, `${target}.tsx`]
    .map((path) => layerOf(path, table))
    .reduce((a, b) => (b && (!a || b.folder.length > a.folder.length) ? b : a))
  if (!to) {
    if (inAny(target, checkedRoots)) return `${target} is in no layer: add its folder to scripts/layers.ts`
    return `${named(from.folder)} imports ${target}, outside the layered code: ${say(from)}`
  }
  if (to === from) {
    const [mine, theirs] = [unitOf(file, from), unitOf(target, from)]
    if (mine && theirs && mine !== theirs) return `${mine}/ imports ${theirs}/: ${from.unitsApart}`
    return undefined
  }
  if (!from.mayImport.includes(to.folder))
    return `${named(from.folder)} may not import ${named(to.folder)} (it may import ${from.mayImport.map(named).join(', ') || 'nothing of the other layers'}): ${say(from)}`
  return undefined
}

function* sourceFiles(root: string, folder: string): Generator<string> {
  for (const entry of readdirSync(join(root, folder), { withFileTypes: true })) {
    const path = `${folder}/${entry.name}`
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && entry.name !== 'dist') yield* sourceFiles(root, path)
    } else if (sourceFile.test(entry.name) && !entry.name.endsWith('.d.ts')) yield path
  }
}

/** Every import of src/, server/ and packages/ that breaks the table. */
export function checkTree(root: string): Violation[] {
  const violations: Violation[] = []
  for (const top of checkedRoots)
    for (const file of sourceFiles(root, top)) {
      if (!layerOf(file)) {
        violations.push({
          file,
          line: 1,
          specifier: '',
          message: `${file} is in no layer of scripts/layers.ts`,
        })
        continue
      }
      for (const { specifier, line } of importsOf(readFileSync(join(root, file), 'utf8'))) {
        const message = checkImport(file, specifier)
        if (message) violations.push({ file, line, specifier, message })
      }
    }
  return violations
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..')
  const violations = checkTree(root)
  for (const v of violations)
    console.error(`${relative(root, join(root, v.file))}:${v.line}: '${v.specifier}': ${v.message}`)
  if (violations.length) {
    console.error(`\n${violations.length} import(s) break the layers (scripts/layers.ts)`)
    process.exit(1)
  }
  console.log('layers: every import of src/, server/ and packages/ keeps to scripts/layers.ts')
}
