#!/usr/bin/env node
// Bundles the sandbox runtime (server/runtime/cli.ts) into one ES module, so a sandbox needs only
// that file and its native packages, and starts without a TypeScript loader.
//   node scripts/build-runtime.mjs [--force]   prints the bundle's path on stdout
// Rebuilds only when a source is newer than the bundle.
import { mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')

/** The bundle the launcher binds into every sandbox. */
export const runtimeBundlePath = join(root, 'dist', 'runtime', 'runtime.mjs')
/** Beside it, `sudo` inside a sandbox: a small client of the runtime's sudo socket. */
const sudoBundlePath = join(root, 'dist', 'runtime', 'sudo.mjs')

/** Packages with native code: loaded from node_modules at run time, never bundled. */
export const runtimeNativePackages = ['node-pty', 'fs-xattr', '@sandbox-ide/fs-entries']

/** Directories whose .ts files end up in the bundle. */
// Everything the runtime imports: its own folder, the servers' shared HTTP helpers, the generated code and the contract.
const sourceDirs = [
  join(root, 'server', 'runtime'),
  join(root, 'server', 'http'),
  join(root, 'src', 'gen'),
  join(root, 'src', 'contract'),
]

function newestSourceMtime(dir) {
  let newest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) newest = Math.max(newest, newestSourceMtime(path))
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'))
      newest = Math.max(newest, statSync(path).mtimeMs)
  }
  return newest
}

const bundleMtime = () => statSync(runtimeBundlePath, { throwIfNoEntry: false })?.mtimeMs ?? -1

/** Besides the sources: new package versions, or a new way of bundling, also call for a build. */
const alsoWatched = [join(root, 'package-lock.json'), fileURLToPath(import.meta.url)]

const mtimeOf = (file) => statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0

/** Builds the bundle unless it is newer than every source; resolves to its path. */
export async function buildRuntime({ force = false } = {}) {
  const newest = Math.max(...sourceDirs.map(newestSourceMtime), ...alsoWatched.map(mtimeOf))
  if (!force && bundleMtime() >= newest) return runtimeBundlePath
  const { build } = await import('esbuild')
  mkdirSync(dirname(runtimeBundlePath), { recursive: true })
  // Written aside and renamed, so a concurrent build or a starting sandbox never sees half a file.
  const partial = `${runtimeBundlePath}.${process.pid}.partial`
  const sudoPartial = `${sudoBundlePath}.${process.pid}.partial`
  try {
    await build({
      entryPoints: [join(root, 'server', 'runtime', 'sudo', 'sudoCli.ts')],
      outfile: sudoPartial,
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      logLevel: 'warning',
    })
    renameSync(sudoPartial, sudoBundlePath)
    await build({
      entryPoints: [join(root, 'server', 'runtime', 'cli.ts')],
      outfile: partial,
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      external: runtimeNativePackages,
      // Bundled CommonJS packages call require() for Node built-ins; ESM has none of its own.
      banner: {
        js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
      },
      logLevel: 'warning',
    })
    renameSync(partial, runtimeBundlePath)
  } finally {
    rmSync(partial, { force: true })
    rmSync(sudoPartial, { force: true })
  }
  return runtimeBundlePath
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const started = Date.now()
  const before = bundleMtime()
  const path = await buildRuntime({ force: process.argv.includes('--force') })
  const built = bundleMtime() !== before
  console.error(`build-runtime: ${built ? `built in ${Date.now() - started} ms` : 'up to date'}`)
  console.log(path)
}
