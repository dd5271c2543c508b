import react from '@vitejs/plugin-react'
import { defaultClientConditions, defineConfig } from 'vite'
import { precompressPlugin } from './scripts/precompress'

export default defineConfig({
  plugins: [react(), precompressPlugin()],
  // The project's own packages (packages/*) are bundled from their sources, not their builds.
  resolve: { conditions: ['sandbox-ide-source', ...defaultClientConditions] },
  // The manifest tells the weight budgets which chunks each page loads (scripts/weight.test.ts).
  build: { outDir: 'dist/ide', emptyOutDir: true, sourcemap: true, manifest: true },
  server: { host: '127.0.0.1' },
  preview: { host: '127.0.0.1' },
})
