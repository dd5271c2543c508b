#!/usr/bin/env node
// Fails when src/gen is not what `npm run gen` makes from proto/: generates into a
// temporary folder and compares, leaving the work tree alone.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const out = mkdtempSync(join(tmpdir(), 'gen-check-'))
try {
  const buf = spawnSync('npx', ['buf', 'generate', '--output', out], { cwd: root, stdio: 'inherit' })
  if (buf.status !== 0) process.exit(1)
  const fresh = join(out, 'src', 'gen')
  const committed = join(root, 'src', 'gen')
  const names = new Set([...readdirSync(fresh), ...readdirSync(committed)])
  const stale = [...names].filter((name) => {
    try {
      return !readFileSync(join(fresh, name)).equals(readFileSync(join(committed, name)))
    } catch {
      return true
    }
  })
  if (stale.length > 0) {
    console.error(
      `gen-check: src/gen is stale (${stale.join(', ')}); run 'npm run gen' and commit the result`,
    )
    process.exit(1)
  }
  console.log(`gen-check: src/gen matches proto/ (${names.size} files)`)
} finally {
  rmSync(out, { recursive: true, force: true })
}
