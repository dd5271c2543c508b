import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'
import { precompressPlugin } from './scripts/precompress'

export default defineConfig({
  plugins: [react(), precompressPlugin()],
  // The manifest tells the weight budgets which chunks each page loads (src/weight.test.ts).
  build: { outDir: 'dist/ide', emptyOutDir: true, sourcemap: true, manifest: true },
  server: { host: '127.0.0.1' },
  preview: { host: '127.0.0.1' },
})
