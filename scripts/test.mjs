#!/usr/bin/env node
// The whole test suite: static checks, unit and protocol tests (Vitest), browser tests
// (Playwright on Debian's Chromium; their core in Firefox ESR and WebKitGTK too, e2e/engines).
// Runs every step even when one fails, prints a table, and ends with one line "N passed, N
// failed" that adds up the test runners.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { stripVTControlCharacters } from 'node:util'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const results = join(root, 'test-results')
rmSync(results, { recursive: true, force: true })
mkdirSync(results, { recursive: true })

const bin = (name) => join(root, 'node_modules', '.bin', name)

function run(cmd, args, env = {}) {
  const started = Date.now()
  const { status } = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } })
  return { ok: status === 0, seconds: (Date.now() - started) / 1000 }
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(join(results, file), 'utf8'))
  } catch {
    return undefined
  }
}

/** A runner that wrote no report crashed: count it as one failure so it can't pass unseen. */
function counts(report, pick) {
  return report ? pick(report) : { passed: 0, failed: 1, skipped: 0 }
}

/** Each failed test's name and the first lines of why (stack frames left out): the end of a CI log then says what broke. */
function failures(unitReport, e2eReport, hookErrors = []) {
  const plain = (text) =>
    stripVTControlCharacters(String(text ?? ''))
      .split('\n')
      .filter((line) => line.trim() && !/^\s*(at |❯ )/.test(line))
      .slice(0, 12)
      .map((line) => `    ${line.slice(0, 300)}`)
      .join('\n')
  const lines = []
  for (const file of unitReport?.testResults ?? []) {
    const name = file.name.replace(`${root}/`, '')
    const failed = file.assertionResults.filter((a) => a.status === 'failed')
    for (const a of failed) lines.push(`✗ ${name} › ${a.fullName}\n${plain(a.failureMessages[0])}`)
    const hooksSayWhy = hookErrors.some(({ where }) => where.startsWith(name))
    if (!failed.length && file.status === 'failed' && !hooksSayWhy)
      lines.push(`✗ ${name}\n${plain(file.message)}`)
  }
  // Hooks and errors outside tests, which the JSON report names no reason for (failureReporter.mjs).
  for (const { where, message } of hookErrors) lines.push(`✗ ${where}\n${plain(message)}`)
  const walk = (suite) => {
    for (const spec of suite.specs ?? [])
      if (!spec.ok) {
        const error = spec.tests.flatMap((t) => t.results).find((r) => r.error)?.error
        lines.push(`✗ e2e/${spec.file} › ${spec.title}\n${plain(error?.message)}`)
      }
    for (const child of suite.suites ?? []) walk(child)
  }
  for (const suite of e2eReport?.suites ?? []) walk(suite)
  return lines
}

/** A Vitest JSON report's counts. */
const vitestCounts = (r) => ({
  passed: r.numPassedTests,
  failed: r.numFailedTests,
  skipped: r.numPendingTests + r.numTodoTests,
})

/** Like run, for steps that run side by side: resolves when the command exits. */
function runAside(cmd, args) {
  const started = Date.now()
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, stdio: 'inherit' })
    const done = (ok) => resolve({ ok, seconds: (Date.now() - started) / 1000 })
    child.on('error', () => done(false))
    child.on('exit', (status) => done(status === 0))
  })
}

// The static checks and the build side by side: each waits on its own disk reads and threads
// as much as on a core, and none depends on another. Built before the unit tests, so they see
// the same tree on a clean clone as on a working copy.
const firstSteps = [
  ['generated code is fresh', 'node', ['scripts/gen-check.mjs']],
  ['typecheck (tsc, per environment)', 'node', ['scripts/typecheck.mjs']],
  ['lint and format (biome)', bin('biome'), ['check', '.']],
  ['layers (scripts/layers.ts)', bin('tsx'), ['scripts/checkLayers.ts']],
  ['build (vite)', bin('vite'), ['build', '--logLevel', 'warn']],
]
const rows = await Promise.all(
  firstSteps.map(async ([name, cmd, args]) => ({ name, ...(await runAside(cmd, args)) })),
)
const build = rows.at(-1)

/** Vitest's reporters: its default, its JSON report, and ours for failures that report leaves without a reason. */
const vitestRun = (name, config = []) =>
  run(
    bin('vitest'),
    [
      'run',
      ...config,
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=test-results/${name}.json`,
      '--reporter=./scripts/failureReporter.mjs',
    ],
    { FAILURE_REPORT: join(results, `${name}-errors.json`) },
  )

const unit = vitestRun('unit')
const unitReport = readJson('unit.json')
const unitCounts = counts(unitReport, vitestCounts)
rows.push({ name: 'unit and protocol tests (vitest)', ...unit, ...unitCounts })

/** A Playwright JSON report's counts. */
const playwrightCounts = (r) => ({
  passed: r.stats.expected + r.stats.flaky,
  failed: r.stats.unexpected,
  skipped: r.stats.skipped,
})

// Two runs: the spec files two at a time, then those that must run alone (playwright.config.ts).
const e2eRuns = [
  { project: 'together', name: 'browser tests, in parallel (playwright)', report: 'e2e.json' },
  { project: 'alone', name: 'browser tests, one at a time (playwright)', report: 'e2e-alone.json' },
].map(({ project, name, report }) => {
  const result = build.ok
    ? run(bin('playwright'), ['test', '--project', project], {
        PLAYWRIGHT_JSON_OUTPUT_NAME: join(results, report),
      })
    : { ok: false, seconds: 0 }
  const json = build.ok ? readJson(report) : undefined
  rows.push({ name, ...result, ...counts(json, playwrightCounts) })
  return { json, counts: counts(json, playwrightCounts) }
})

// The same stack in the engines Playwright cannot drive: Firefox ESR and WebKitGTK.
const engines = build.ok
  ? vitestRun('engines', ['--config', 'vitest.engines.config.ts'])
  : { ok: false, seconds: 0 }
const enginesReport = build.ok ? readJson('engines.json') : undefined
const enginesCounts = counts(enginesReport, vitestCounts)
rows.push({ name: 'browser tests (Firefox, WebKit)', ...engines, ...enginesCounts })

const failedTests = [
  ...failures(unitReport, undefined, readJson('unit-errors.json')),
  ...e2eRuns.flatMap(({ json }) => failures(undefined, json)),
  ...failures(enginesReport, undefined, readJson('engines-errors.json')),
]
if (failedTests.length) console.log(`\nwhat failed:\n${failedTests.join('\n')}`)
const width = Math.max(...rows.map((r) => r.name.length))
console.log(`\n${'step'.padEnd(width)} result   time   tests`)
for (const r of rows) {
  const tests = r.passed === undefined ? '' : `${r.passed} passed, ${r.failed} failed, ${r.skipped} skipped`
  console.log(
    `${r.name.padEnd(width)} ${(r.ok ? 'ok' : 'FAILED').padEnd(8)} ${r.seconds.toFixed(1).padStart(5)}s  ${tests}`,
  )
}
// A failed step that runs no tests (codegen, typecheck, lint, build) counts as one failure.
const failedChecks = rows.filter((r) => !r.ok && r.passed === undefined).length
const runners = [unitCounts, ...e2eRuns.map((r) => r.counts), enginesCounts]
const passed = runners.reduce((sum, c) => sum + c.passed, 0)
const failed = runners.reduce((sum, c) => sum + c.failed, 0) + failedChecks
const summary = `${passed} passed, ${failed} failed`
writeFileSync(join(results, 'summary.txt'), `${summary}\n`)
if (existsSync(join(results, 'e2e'))) console.log('browser test artifacts: test-results/e2e/')
console.log(summary)
process.exit(rows.every((r) => r.ok) ? 0 : 1)
