#!/usr/bin/env node
// `npm run typecheck`: each part of the project in the environment it runs in, and only that one.
// The browser app has the DOM and no Node, the stack has Node and no DOM, the contract they share
// has neither; tests, benches and scripts have what they need (the root tsconfig.json).
import { spawnSync } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
export const projects = [
  'src/tsconfig.json',
  'src/tsconfig.shared.json',
  'server/tsconfig.json',
  'tsconfig.json',
]

let failed = 0
for (const project of projects) {
  const { status } = spawnSync(join(root, 'node_modules', '.bin', 'tsc'), ['-p', project], {
    cwd: root,
    stdio: 'inherit',
  })
  if (status !== 0) {
    failed++
    console.error(`typecheck: ${project} has errors`)
  }
}
process.exit(failed ? 1 : 0)
