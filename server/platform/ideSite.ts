import { statSync } from 'node:fs'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { join } from 'node:path'
import sirv from 'sirv'

/** Modification time of the build's index.html, or undefined when the IDE is not built. */
function buildTime(distDir: string): number | undefined {
  try {
    return statSync(join(distDir, 'index.html')).mtimeMs
  } catch {
    return undefined
  }
}

/**
 * The build's files: its brotli or gzip copies where the browser takes them (made at build time,
 * scripts/precompress.ts), hashed assets cached for good, everything else checked each time.
 */
function serveBuild(distDir: string) {
  return sirv(distDir, {
    single: true,
    etag: true,
    dev: false,
    brotli: true,
    gzip: true,
    setHeaders(res, pathname) {
      // Vite names assets by their content: a new build has new names.
      res.setHeader(
        'Cache-Control',
        pathname.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
      )
    },
  })
}

/**
 * Serves the built IDE (`dist/ide`), with `index.html` for every path the app routes itself.
 * sirv lists the folder when it is made, so it is made again whenever a new build lands (its
 * index.html changes); until a build exists, says how to make one instead of answering 404s.
 */
export function ideSite(distDir: string) {
  let served: { builtAt: number; serve: ReturnType<typeof sirv> } | undefined
  return (req: IncomingMessage, res: ServerResponse): void => {
    // A site of files: anything but reading one is a method it does not have, built or not.
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' })
      res.end(`${req.method} is not allowed here: the IDE's pages are only read (GET, HEAD)\n`)
      return
    }
    const builtAt = buildTime(distDir)
    if (builtAt === undefined) {
      res.writeHead(503, { 'Content-Type': 'text/plain; charset=utf-8' })
      res.end('The IDE is not built yet: run `npm run build` (npm start does it for you).\n')
      return
    }
    if (served?.builtAt !== builtAt) served = { builtAt, serve: serveBuild(distDir) }
    served.serve(req, res, () => {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('not found\n')
    })
  }
}
