import { defineConfig } from 'vitest/config'

export default defineConfig({
  // The project's own packages (packages/*) are tested from their sources, not their builds.
  resolve: {
    conditions: ['sandbox-ide-source'],
    // vscode-jsonrpc's runtime layer for the browser, in Node: its Node layer does the same job.
    alias: [{ find: /^vscode-jsonrpc\/browser$/, replacement: 'vscode-jsonrpc/node' }],
  },
  ssr: { resolve: { conditions: ['sandbox-ide-source'], externalConditions: ['sandbox-ide-source'] } },
  test: {
    include: [
      'proto/**/*.test.ts',
      'src/**/*.test.ts',
      'server/**/*.test.ts',
      'scripts/**/*.test.ts',
      'bench/**/*.test.ts',
    ],
    environment: 'node',
    // The protocol tests start real servers and processes; two cores do not like many at once.
    maxWorkers: 2,
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
})
