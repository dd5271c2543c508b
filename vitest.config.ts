import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { defineConfig } from 'vitest/config'

/** Where the unit and protocol tests are. */
const roots = ['proto', 'src', 'server', 'scripts', 'bench']
const tests = roots.map((root) => `${root}/**/*.test.ts`)

/** Test files that replace a module with vi.mock, found by reading them: each gets a fresh module registry. */
const mocksModules = roots
  .flatMap((root) => readdirSync(root, { recursive: true, encoding: 'utf8' }).map((path) => join(root, path)))
  .filter((path) => path.endsWith('.test.ts') && readFileSync(path, 'utf8').includes('vi.mock('))

export default defineConfig({
  // The project's own packages (packages/*) are tested from their sources, not their builds.
  resolve: {
    conditions: ['sandbox-ide-source'],
    // vscode-jsonrpc's runtime layer for the browser, in Node: its Node layer does the same job.
    alias: [{ find: /^vscode-jsonrpc\/browser$/, replacement: 'vscode-jsonrpc/node' }],
  },
  ssr: { resolve: { conditions: ['sandbox-ide-source'], externalConditions: ['sandbox-ide-source'] } },
  test: {
    environment: 'node',
    // The protocol tests start real servers and processes; two cores do not like many at once.
    maxWorkers: 2,
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // A worker runs its files in one module registry: each file loading the runtime, the platform
    // and protobuf's code again was a third of the run. The tests leave no state behind them (each
    // starts and closes its own servers); a file that replaces a module (vi.mock) needs a registry
    // of its own.
    projects: [
      { extends: true, test: { name: 'unit', include: tests, exclude: mocksModules, isolate: false } },
      { extends: true, test: { name: 'unit, own modules', include: mocksModules } },
    ],
  },
})
