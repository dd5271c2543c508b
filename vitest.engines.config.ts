import { defineConfig } from 'vitest/config'

// The browser tests in the engines Playwright cannot drive (Firefox ESR, WebKitGTK): the two
// engines' files side by side, as Playwright runs its spec files (each has its own stack).
export default defineConfig({
  test: {
    include: ['e2e/engines/**/*.test.ts'],
    environment: 'node',
    maxWorkers: 2,
    testTimeout: 90_000,
    hookTimeout: 90_000,
  },
})
