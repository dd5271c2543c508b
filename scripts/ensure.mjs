#!/usr/bin/env node
// Makes a fresh clone runnable: installs npm packages when the lock file changed, and the
// Debian packages a purpose needs. Node built-ins only: it runs before node_modules exists.
//   node scripts/ensure.mjs start|test|bench
import { execFileSync, spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const purpose = process.argv[2] ?? 'start'

/** Debian packages per purpose: file that proves it is there, package that provides it. */
const debianNeeds = {
  // slirp4netns gives each sandbox's own network its way out (pip, apt, git).
  start: [
    ['/usr/bin/bwrap', 'bubblewrap'],
    ['/usr/bin/slirp4netns', 'slirp4netns'],
    // Makes the idmapped mounts under each sandbox's own system (launcher/idmappedMount.py).
    ['/usr/bin/python3', 'python3'],
    // `python` in sandboxes, whose system is the host's /usr, as E2B's base template has it.
    ['/usr/bin/python', 'python-is-python3'],
    // Find in Files and Go to File run ripgrep inside sandboxes, whose system is the host's /usr.
    ['/usr/bin/rg', 'ripgrep'],
  ],
  test: [
    ['/usr/bin/chromium', 'chromium'],
    // The core browser tests run in Firefox ESR and WebKitGTK too (e2e/engines): Firefox over
    // WebDriver BiDi, WebKitGTK's MiniBrowser through its WebDriver, in a virtual X display.
    ['/usr/bin/firefox-esr', 'firefox-esr'],
    ['/usr/bin/WebKitWebDriver', 'webkit2gtk-driver'],
    ['/usr/bin/Xvfb', 'xvfb'],
    ['/usr/bin/bwrap', 'bubblewrap'],
    ['/usr/bin/slirp4netns', 'slirp4netns'],
    // The --tls tests (and `npm start -- --tls`) make their certificate with it.
    ['/usr/bin/openssl', 'openssl'],
    // The example lab (labs/python-basics) and its tests run Python in sandboxes, as `python` too.
    ['/usr/bin/python3', 'python3'],
    ['/usr/bin/python', 'python-is-python3'],
    // The search tests run ripgrep in sandboxes (and hide it to test the grep fallback).
    ['/usr/bin/rg', 'ripgrep'],
    // A real Python HTTP/2 client (the one E2B's Python SDK uses) against the --tls stack.
    ['/usr/lib/python3/dist-packages/httpx/__init__.py', 'python3-httpx'],
    ['/usr/lib/python3/dist-packages/h2/__init__.py', 'python3-h2'],
  ],
  bench: [
    // The terminal, explorer and editor benches measure in Chromium, and over --tls.
    ['/usr/bin/chromium', 'chromium'],
    ['/usr/bin/bwrap', 'bubblewrap'],
    ['/usr/bin/slirp4netns', 'slirp4netns'],
    ['/usr/bin/openssl', 'openssl'],
    ['/usr/bin/python3', 'python3'],
    // The search bench measures Find in Files against the same rg run directly in the sandbox.
    ['/usr/bin/rg', 'ripgrep'],
  ],
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
    // Without bubblewrap, slirp4netns or python3 the platform still runs (and says what sandboxes lack);
    // without ripgrep, search falls back to grep; without python-is-python3, sandboxes have python3 alone.
    const optional = new Set(['bubblewrap', 'slirp4netns', 'python3', 'python-is-python3', 'ripgrep'])
    if (purpose === 'test' || missing.some((pkg) => !optional.has(pkg))) process.exit(1)
    return
  }
  console.log(`ensure: installing Debian packages: ${missing.join(' ')}`)
  run('apt-get', ['update', '-qq'])
  run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing], {
    DEBIAN_FRONTEND: 'noninteractive',
  })
}

/** Newest modification time of the files under `paths` (directories walked), 0 when none. */
function newestMtime(paths) {
  let newest = 0
  for (const path of paths) {
    if (!existsSync(path)) continue
    const stat = statSync(path)
    if (stat.isDirectory()) {
      newest = Math.max(newest, newestMtime(readdirSync(path).map((name) => join(path, name))))
    } else {
      newest = Math.max(newest, stat.mtimeMs)
    }
  }
  return newest
}

/** Builds the IDE when any of its sources is newer than the build. */
function ensureIdeBuild() {
  const built = join(root, 'dist', 'ide', 'index.html')
  const sources = [
    'src',
    'public',
    'index.html',
    'vite.config.ts',
    'scripts/precompress.ts',
    'package-lock.json',
  ].map((p) => join(root, p))
  if (existsSync(built) && statSync(built).mtimeMs >= newestMtime(sources)) return
  console.log('ensure: building the IDE')
  // A production build whatever this process was started with: under a test runner NODE_ENV is
  // `test`, which vite keeps, and React's development build then lands in the entry (+57 kB gzipped).
  run(join(root, 'node_modules', '.bin', 'vite'), ['build', '--logLevel', 'warn'], { NODE_ENV: 'production' })
}

/**
 * The peers the benches measure against in the same run, installed apart from the project (they
 * are not its dependencies): wetty, the nearest open web terminal (xterm, socket.io, node-pty).
 */
const benchPeers = join(root, '.bench-peers')
const wetty = 'wetty@3.2.0'

function ensureBenchPeers() {
  const stamp = join(benchPeers, '.installed')
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === wetty) return
  console.log(`ensure: installing the bench's peer ${wetty} into .bench-peers/`)
  run('npm', ['install', '--prefix', benchPeers, '--no-audit', '--no-fund', '--no-save', wetty])
  writeFileSync(stamp, wetty)
}

/**
 * The language servers the IDE starts inside sandboxes, installed apart from the project (they are
 * the sandboxes' tools, not its dependencies) into a folder the launcher binds into every sandbox
 * (src/contract/languageServers.ts): Pyright for Python, TypeScript's own server for TS and JS.
 */
const languageServers = join(root, '.language-servers')
const languageServerPackages = ['pyright@1.1.414', 'typescript@7.0.2']

function ensureLanguageServers() {
  const stamp = join(languageServers, '.installed')
  const wanted = languageServerPackages.join(' ')
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === wanted) return
  console.log(`ensure: installing the sandboxes' language servers (${wanted}) into .language-servers/`)
  run('npm', [
    'install',
    '--prefix',
    languageServers,
    '--no-audit',
    '--no-fund',
    '--no-save',
    ...languageServerPackages,
  ])
  writeFileSync(stamp, wanted)
}

ensureNodeModules()
ensureDebian(debianNeeds[purpose] ?? [])
ensureLanguageServers()
// The sandbox runtime's bundle is built by the platform's launcher itself when it is stale.
// The terminal bench opens the IDE itself, next to wetty.
if (purpose === 'start' || purpose === 'bench') ensureIdeBuild()
if (purpose === 'bench') ensureBenchPeers()
if (purpose === 'test' || purpose === 'bench') {
  try {
    execFileSync('/usr/bin/chromium', ['--version'], { stdio: 'ignore' })
  } catch {
    console.error('ensure: /usr/bin/chromium is installed but does not run')
    process.exit(1)
  }
}
