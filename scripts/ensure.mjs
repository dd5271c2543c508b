#!/usr/bin/env node
// Makes a fresh clone runnable: installs npm packages when the lock file changed, and the
// Debian packages a purpose needs. Node built-ins only: it runs before node_modules exists.
//   node scripts/ensure.mjs start|test|bench
import { execFileSync, spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const purpose = process.argv[2] ?? 'start'

/** Debian packages per purpose: command that proves it is there, package that provides it. */
const debianNeeds = {
  start: [],
  test: [['/usr/bin/chromium', 'chromium']],
  bench: [],
}

function run(cmd, args, env = {}) {
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } })
  if (result.status !== 0) {
    console.error(`ensure: '${cmd} ${args.join(' ')}' failed (exit ${result.status ?? result.signal})`)
    process.exit(1)
  }
}

function ensureNodeModules() {
  const lock = readFileSync(join(root, 'package-lock.json'))
  const hash = createHash('sha256').update(lock).digest('hex')
  const stamp = join(root, 'node_modules', '.installed-lock-sha256')
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === hash) return
  console.log('ensure: installing npm packages')
  // Not `npm ci`: it rejects a lock file whose other-platform optional binaries the registry lacks.
  run('npm', ['install', '--no-audit', '--no-fund'])
  writeFileSync(stamp, hash)
}

function ensureDebian(needs) {
  const missing = needs.filter(([file]) => !existsSync(file)).map(([, pkg]) => pkg)
  if (missing.length === 0) return
  if (process.getuid?.() !== 0) {
    console.error(`ensure: missing Debian packages: ${missing.join(' ')}`)
    console.error(`        install them with: sudo apt-get install -y ${missing.join(' ')}`)
    process.exit(1)
  }
  console.log(`ensure: installing Debian packages: ${missing.join(' ')}`)
  run('apt-get', ['update', '-qq'])
  run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing], {
    DEBIAN_FRONTEND: 'noninteractive',
  })
}

ensureNodeModules()
ensureDebian(debianNeeds[purpose] ?? [])
if (purpose === 'test') {
  try {
    execFileSync('/usr/bin/chromium', ['--version'], { stdio: 'ignore' })
  } catch {
    console.error('ensure: /usr/bin/chromium is installed but does not run')
    process.exit(1)
  }
}
