import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'

/** The bundled runtime and the native packages it loads from node_modules. */
export interface RuntimeBundle {
  /** The bundle file on the host. */
  file: string
  /** Folder holding it, bound read-only into every sandbox. */
  dir: string
  /** Native packages the bundle imports, by name, with their host folders. */
  nativePackages: { name: string; dir: string }[]
  /** The language servers `npm start` installed (.language-servers), where they are. */
  languageServers?: string
}

/** Kept in step with `runtimeNativePackages` in scripts/build-runtime.mjs. */
const nativePackageNames = ['node-pty', 'fs-xattr', '@sandbox-ide/fs-entries']

/**
 * Makes sure the runtime bundle exists and is newer than its sources (runs
 * scripts/build-runtime.mjs, which builds only when needed) and says where everything is.
 */
export async function ensureRuntimeBundle(projectRoot: string): Promise<RuntimeBundle> {
  const script = join(projectRoot, 'scripts', 'build-runtime.mjs')
  let stdout: string
  try {
    ;({ stdout } = await promisify(execFile)(process.execPath, [script], { cwd: projectRoot }))
  } catch (err) {
    const stderr = (err as { stderr?: string }).stderr?.trim()
    throw new Error(`cannot build the sandbox runtime bundle: ${stderr || String(err)}`)
  }
  const file = stdout.trim().split('\n').at(-1) ?? ''
  if (!existsSync(file)) throw new Error(`the runtime bundle '${file}' is missing after the build`)
  const nativePackages = nativePackageNames.map((name) => {
    const dir = join(projectRoot, 'node_modules', name)
    if (!existsSync(join(dir, 'package.json')))
      throw new Error(`the runtime needs the native package '${name}', not found in ${dir}`)
    return { name, dir }
  })
  const languageServers = join(projectRoot, '.language-servers')
  return {
    file,
    dir: dirname(file),
    nativePackages,
    ...(existsSync(join(languageServers, 'node_modules')) ? { languageServers } : {}),
  }
}
