// What each page of the built IDE loads before it is usable, from Vite's manifest: a chunk and
// every chunk it imports statically. Sizes are those of the gzip copies the server sends
// (scripts/precompress.ts), so the figures are what a browser downloads.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'

/** The pages whose weight is budgeted, as manifest entries each loads before it is usable. */
export const pages: Record<'entry' | 'workbench' | 'terminalEmbed', readonly string[]> = {
  /** Any page's first script: what must arrive before anything renders. */
  entry: ['index.html'],
  /** The workbench with its explorer and editor panels, before the editor (Monaco) is needed. */
  workbench: ['index.html', 'src/workbench/Sidebar.tsx', 'src/features/editor/EditorArea.tsx'],
  /** `/embed?panels=terminal`: a terminal and nothing else. */
  terminalEmbed: ['index.html', 'src/embed/EmbedPage.tsx'],
}

/** Reads a build (`dist/ide`); throws with what to run when there is none. */
interface ManifestChunk {
  file: string
  imports?: string[]
}

/** A build's chunks, what pages load of them, and their weight. */
export interface Build {
  /** The files of the chunks `keys` load: themselves and their static imports, transitively. */
  chunks(keys: readonly string[]): string[]
  /** Gzip bytes of the JavaScript `keys` load. */
  gzipBytes(keys: readonly string[]): number
  /** The source modules bundled into the chunks `keys` load (from their source maps). */
  modules(keys: readonly string[]): string[]
}

export function readBuild(dir: string): Build {
  const manifestFile = join(dir, '.vite', 'manifest.json')
  if (!existsSync(manifestFile)) throw new Error(`no build in ${dir}: run \`npm run build\` first`)
  const manifest: Record<string, ManifestChunk> = JSON.parse(readFileSync(manifestFile, 'utf8'))
  const gzipBytes = (file: string) => {
    const path = join(dir, file)
    return existsSync(`${path}.gz`)
      ? readFileSync(`${path}.gz`).length
      : gzipSync(readFileSync(path), { level: 9 }).length
  }
  const chunks = (keys: readonly string[]) => {
    const seen = new Set<string>()
    const pending = [...keys]
    while (pending.length) {
      const key = pending.pop() as string
      const chunk = manifest[key]
      if (!chunk) throw new Error(`the build has no chunk for ${key}`)
      if (seen.has(key)) continue
      seen.add(key)
      pending.push(...(chunk.imports ?? []))
    }
    return [...seen].map((key) => (manifest[key] as ManifestChunk).file)
  }
  return {
    chunks,
    gzipBytes: (keys) => chunks(keys).reduce((sum, file) => sum + gzipBytes(file), 0),
    modules: (keys) =>
      chunks(keys).flatMap((file) => {
        const map = join(dir, `${file}.map`)
        return existsSync(map) ? JSON.parse(readFileSync(map, 'utf8')).sources : []
      }),
  }
}
