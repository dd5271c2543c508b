import { z } from 'zod'
import type { ClassCheckAnswer, ClassSummary, ClassView } from '../../../src/contract/ideApiTypes'
import { readJsonBody, sendJson } from '../api/httpJson'
import type { ClassBoard } from '../class/classBoard'
import { isSandboxId } from '../ids'
import { PlatformError } from '../platformError'
import type { SandboxManager } from '../sandboxManager'
import type { IdeRoute } from './ideRoute'

const className = /^[A-Za-z0-9._-]{1,64}$/
/** Which of the class's students an action is for; all of them when absent. */
const someStudents = z.strictObject({ sandboxIds: z.array(z.string().max(64)).min(1).max(500).optional() })
const extendBody = someStudents.extend({
  seconds: z
    .number()
    .int()
    .min(60)
    .max(7 * 24 * 60 * 60),
})

function nameParam(params: string[]): string {
  const name = decodeURIComponent(params[0] ?? '')
  if (!className.test(name)) throw new PlatformError(400, 'invalid class name')
  return name
}

/**
 * The teacher's dashboard (`/class/{name}`): the classes, one class's students, and actions for
 * all of them or some (`sandboxIds`): check, pause, resume, extend; a student's lab reset; the
 * class's end. The owner only: no student's sign-in reaches these.
 */
export function classRoutes(deps: { board: ClassBoard; manager: SandboxManager }): IdeRoute[] {
  const { board, manager } = deps
  /** Runs `action` on each chosen sandbox, all at once; the first failure is the answer's. */
  const forEach = async (
    name: string,
    ids: string[] | undefined,
    action: (id: string) => Promise<unknown>,
  ) => {
    const results = await Promise.allSettled(board.chosen(name, ids).map((r) => action(r.sandboxID)))
    const failed = results.find((r) => r.status === 'rejected')
    if (failed) throw failed.reason
    return results.length
  }
  return [
    {
      pattern: /^\/classes$/,
      methods: { GET: async (_req, res) => sendJson(res, 200, board.classes() satisfies ClassSummary[]) },
    },
    {
      pattern: /^\/classes\/([^/]+)$/,
      methods: {
        GET: async (_req, res, params) =>
          sendJson(res, 200, board.view(nameParam(params)) satisfies ClassView),
        // The class ends: every sandbox of it is killed, their files with them.
        DELETE: async (_req, res, params) => {
          await forEach(nameParam(params), undefined, (id) => manager.kill(id))
          res.writeHead(204).end()
        },
      },
    },
    {
      pattern: /^\/classes\/([^/]+)\/check$/,
      methods: {
        POST: async (req, res, params) => {
          const name = nameParam(params)
          const { sandboxIds } = await readJsonBody(req, someStudents, { optional: true })
          const chosen = board.chosen(name, sandboxIds)
          const { passed, checked } = await board.check(chosen)
          sendJson(res, 200, { passed, checked, students: chosen.length } satisfies ClassCheckAnswer)
        },
      },
    },
    {
      pattern: /^\/classes\/([^/]+)\/(pause|resume)$/,
      methods: {
        POST: async (req, res, params) => {
          const { sandboxIds } = await readJsonBody(req, someStudents, { optional: true })
          const resume = params[1] === 'resume'
          // Only those that are not already so: pausing a paused sandbox is a 409 on its own.
          const chosen = board.chosen(nameParam(params), sandboxIds)
          const changing = chosen.filter((r) => (r.state === 'paused') === resume).map((r) => r.sandboxID)
          await Promise.all(changing.map((id) => (resume ? manager.connect(id) : manager.pause(id))))
          sendJson(res, 200, { changed: changing.length })
        },
      },
    },
    {
      pattern: /^\/classes\/([^/]+)\/timeout$/,
      methods: {
        POST: async (req, res, params) => {
          const { sandboxIds, seconds } = await readJsonBody(req, extendBody)
          const changed = await forEach(nameParam(params), sandboxIds, async (id) =>
            manager.setTimeout(id, seconds),
          )
          sendJson(res, 200, { changed })
        },
      },
    },
    {
      pattern: /^\/sandboxes\/([^/]+)\/lab-reset$/,
      methods: {
        POST: async (_req, res, params) => {
          const id = params[0] ?? ''
          if (!isSandboxId(id)) throw new PlatformError(400, 'invalid sandbox id')
          manager.get(id)
          await board.reset(id)
          res.writeHead(204).end()
        },
      },
    },
  ]
}
