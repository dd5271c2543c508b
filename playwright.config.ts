import { defineConfig } from '@playwright/test'
import { chromiumLaunchOptions } from './e2e/chromium'

/**
 * Specs that measure what the machine's load changes (an output window sized by the rate a page
 * parses at, keys typed at a person's pace against a shell's job control, a slow link, echo
 * through StreamInput) or that are heavy enough to starve a neighbour (axe's audits, screenshot
 * comparisons). They run one at a time, with nothing beside them; every other spec file runs
 * beside another (each has its own stack, port and data folder, so they share nothing).
 */
const alone = ['terminals', 'terminal-input', 'predictiveEcho', 'streaminput', 'a11y', 'visual'].map(
  (name) => `**/${name}.spec.ts`,
)

export default defineConfig({
  testDir: 'e2e',
  // e2e/engines/*.test.ts are for other engines, run by vitest.engines.config.ts.
  testMatch: '**/*.spec.ts',
  outputDir: 'test-results/e2e',
  // One picture per state whatever the project (e2e/visual.spec.ts-snapshots/sign-in-linux.png).
  snapshotPathTemplate: '{testDir}/{testFilePath}-snapshots/{arg}-{platform}{ext}',
  // Files in parallel, the tests of a file in order (they share its stack).
  fullyParallel: false,
  workers: 2,
  timeout: 90_000,
  // Two browsers, two stacks and their sandboxes share two cores: a step that takes a second
  // alone (git asked for its config, a restored tab checked against the disk) can take five.
  expect: { timeout: 10_000 },
  forbidOnly: !!process.env.CI,
  // PLAYWRIGHT_JSON_OUTPUT_NAME names the JSON report (scripts/test.mjs runs each project apart).
  reporter: [
    ['list'],
    ['json', { outputFile: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ?? 'test-results/e2e.json' }],
  ],
  use: {
    launchOptions: chromiumLaunchOptions(),
    // Recording a trace costs every test a fifth of its time on two cores (DOM snapshots and a
    // screencast of each action), so it is off; `npx playwright test --trace on` records one.
    trace: 'off',
    screenshot: 'only-on-failure',
  },
  projects: [
    { name: 'together', testIgnore: alone },
    { name: 'alone', testMatch: alone, workers: 1 },
  ],
})
