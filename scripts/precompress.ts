// Writes a gzip and a brotli copy beside every file of a build that compresses well, for the
// IDE's server to send to browsers that accept them (sirv picks `.br`, then `.gz`). Compressed
// once at build time with the strongest settings, never per request.
import { readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'
import type { Plugin } from 'vite'

const brotli = promisify(brotliCompress)
const gzipAsync = promisify(gzip)

/** Text-like files worth compressing (fonts here are uncompressed TrueType). */
const compressible = /\.(js|mjs|css|html|svg|json|ttf|wasm|txt)$/
/** Smaller files gain less than a request's headers. */
const minBytes = 1024
/** Brotli's best quality costs ~1 s per MB; the editor's language workers above this take less. */
const bestQualityUpTo = 1 << 20

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true })
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name))
}

/** Compresses every compressible file under `dir`; answers how many. */
export async function precompress(dir: string): Promise<number> {
  const files = (await filesUnder(dir)).filter((f) => compressible.test(f))
  let written = 0
  await Promise.all(
    files.map(async (file) => {
      const bytes = await readFile(file)
      if (bytes.length < minBytes) return
      const quality = bytes.length <= bestQualityUpTo ? 11 : 9
      const [br, gz] = await Promise.all([
        brotli(bytes, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: quality,
            [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
          },
        }),
        gzipAsync(bytes, { level: 9 }),
      ])
      // A compressed copy no smaller than the file would only cost the browser time.
      if (br.length < bytes.length) await writeFile(`${file}.br`, br)
      if (gz.length < bytes.length) await writeFile(`${file}.gz`, gz)
      written++
    }),
  )
  return written
}

/** The Vite plugin: compresses the build once it is written. */
export function precompressPlugin(): Plugin {
  let outDir = 'dist'
  return {
    name: 'precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir
    },
    async closeBundle() {
      await precompress(outDir)
    },
  }
}
