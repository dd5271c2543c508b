import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

export default defineConfig({
  plugins: [react()],
  build: { outDir: 'dist/ide', emptyOutDir: true, sourcemap: true },
  server: { host: '127.0.0.1' },
  preview: { host: '127.0.0.1' },
})
