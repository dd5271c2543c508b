import { defineConfig } from '@playwright/test'
import { chromiumLaunchOptions } from './e2e/chromium'

export default defineConfig({
  testDir: 'e2e',
  // e2e/engines/*.test.ts are for other engines, run by vitest.engines.config.ts.
  testMatch: '**/*.spec.ts',
  outputDir: 'test-results/e2e',
  fullyParallel: false,
  workers: 1,
  // Each spec starts the real local stack (server/cli.ts) itself, so it can stop and restart it.
  timeout: 90_000,
  forbidOnly: !!process.env.CI,
  reporter: [['list'], ['json', { outputFile: 'test-results/e2e.json' }]],
  use: {
    launchOptions: chromiumLaunchOptions(),
    // Recording a trace costs every test a fifth of its time on two cores (DOM snapshots and a
    // screencast of each action), so it is off; `npx playwright test --trace on` records one.
    trace: 'off',
    screenshot: 'only-on-failure',
  },
})
