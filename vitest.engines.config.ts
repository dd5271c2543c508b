import { defineConfig } from 'vitest/config'

// The browser tests in the engines Playwright cannot drive (Firefox ESR, WebKitGTK), one file at a
// time: beside Firefox, WebKit's WebDriver once took more than 90 s to open a page.
export default defineConfig({
  test: {
    include: ['e2e/engines/**/*.test.ts'],
    environment: 'node',
    fileParallelism: false,
    testTimeout: 90_000,
    hookTimeout: 90_000,
  },
})
