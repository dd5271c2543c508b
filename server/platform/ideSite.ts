import { existsSync } from 'node:fs'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { join } from 'node:path'
import sirv from 'sirv'

/**
 * Serves the built IDE (`dist/ide`), with `index.html` for every path the app routes itself.
 * When the IDE is not built yet, says how to build it instead of answering 404s.
 */
export function ideSite(distDir: string) {
  // sirv reads the folder when it is made, so it is made once a build is there.
  let serve: ReturnType<typeof sirv> | undefined
  return (req: IncomingMessage, res: ServerResponse): void => {
    if (!serve && existsSync(join(distDir, 'index.html')))
      serve = sirv(distDir, { single: true, etag: true, dev: false })
    if (!serve) {
      res.writeHead(503, { 'Content-Type': 'text/plain; charset=utf-8' })
      res.end('The IDE is not built yet: run `npm run build` (npm start does it for you).\n')
      return
    }
    serve(req, res, () => {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('not found\n')
    })
  }
}
