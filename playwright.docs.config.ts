import { defineConfig } from '@playwright/test'
import { chromiumLaunchOptions } from './e2e/chromium'

// `npm run docs:screenshots`: the pictures of README.md and docs/, from the real stack.
export default defineConfig({
  testDir: 'e2e/docs',
  testMatch: '*.docs.ts',
  outputDir: 'test-results/docs',
  workers: 1,
  timeout: 120_000,
  reporter: [['list']],
  use: { launchOptions: chromiumLaunchOptions() },
})
