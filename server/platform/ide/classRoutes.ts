import { z } from 'zod'
import type { ClassCheckAnswer, ClassSummary, ClassView } from '../../../src/contract/ideApiTypes'
import type { JoinLinks } from '../access/joinLinks'
import { readJsonBody, sendJson } from '../api/httpJson'
import type { ClassBoard } from '../class/classBoard'
import type { ClassPlace } from '../class/classPlace'
import { remoteClassPlace } from '../class/remoteClassPlace'
import { isSandboxId } from '../ids'
import { PlatformError } from '../platformError'
import { sameSandbox, sandboxIn } from '../sandboxRef'
import { classNameParam } from './classNameParam'
import { isE2bSandboxId } from './e2bSandboxId'
import type { IdeHandler, IdeRoute } from './ideRoute'
import { isRemoteId, type RemoteStore } from './remoteStore'

/** Which of the class's students an action is for; all of them when absent. */
const someStudents = z.strictObject({ sandboxIds: z.array(z.string().max(64)).min(1).max(500).optional() })
const extendBody = someStudents.extend({
  seconds: z
    .number()
    .int()
    .min(60)
    .max(7 * 24 * 60 * 60),
})

/** Resolves a route's place parameters (none for the stack's own, the remote's id otherwise). */
type PlaceOf = (params: string[]) => ClassPlace

/** A handler given the class's place and the parameters after the place's. */
type PlaceHandler = (
  req: Parameters<IdeHandler>[0],
  res: Parameters<IdeHandler>[1],
  place: ClassPlace,
  params: string[],
) => Promise<void>

/**
 * The teacher's dashboard (`/class/{name}`): the classes, one class's students, and actions for
 * all of them or some (`sandboxIds`): check, pause, resume, extend; a student's lab reset; the
 * class's end. The same routes serve the stack's own classes (`/classes/…`) and an E2B remote's
 * (`/remotes/{remoteId}/classes/…`), whose key stays here. The owner only: no student's sign-in
 * reaches these.
 */
export function classRoutes(deps: {
  board: ClassBoard
  local: ClassPlace
  remotes: RemoteStore
  joinLinks: Pick<JoinLinks, 'revoke'>
}): IdeRoute[] {
  const { board } = deps
  const places: { prefix: string; placeOf: PlaceOf; sandboxId: (id: string) => boolean }[] = [
    { prefix: '', placeOf: () => deps.local, sandboxId: isSandboxId },
    {
      prefix: '/remotes/([^/]+)',
      placeOf: (params) => {
        const remoteId = params[0] ?? ''
        if (!isRemoteId(remoteId)) throw new PlatformError(400, 'invalid remote id')
        return remoteClassPlace(deps.remotes.get(remoteId))
      },
      sandboxId: isE2bSandboxId,
    },
  ]
  /** Runs `action` on each chosen sandbox, all at once; the first failure is the answer's. */
  const forEach = async (
    place: ClassPlace,
    name: string,
    ids: string[] | undefined,
    action: (id: string) => Promise<unknown>,
  ) => {
    const chosen = await board.chosen(place, name, ids)
    const results = await Promise.allSettled(chosen.map((m) => action(m.sandboxId)))
    const failed = results.find((r) => r.status === 'rejected')
    if (failed) throw failed.reason
    return results.length
  }
  const routesAt = ({ prefix, placeOf, sandboxId }: (typeof places)[number]): IdeRoute[] => {
    const placeParams = prefix ? 1 : 0
    /** A route under the place's prefix; its handlers get the place and their own parameters. */
    const route = (path: string, methods: Record<string, PlaceHandler>): IdeRoute => ({
      pattern: new RegExp(`^${prefix}${path}$`),
      methods: Object.fromEntries(
        Object.entries(methods).map(([method, handler]) => [
          method,
          ((req, res, params) =>
            handler(req, res, placeOf(params), params.slice(placeParams))) satisfies IdeHandler,
        ]),
      ),
    })
    return [
      route('/classes', {
        GET: async (_req, res, place) =>
          sendJson(res, 200, (await board.classes(place)) satisfies ClassSummary[]),
      }),
      route('/classes/([^/]+)', {
        GET: async (_req, res, place, params) =>
          sendJson(res, 200, (await board.view(place, classNameParam(params[0]))) satisfies ClassView),
        // The class ends: every sandbox of it is killed, their files with them, and their links go.
        DELETE: async (_req, res, place, params) => {
          await forEach(place, classNameParam(params[0]), undefined, async (id) => {
            await place.kill(id)
            const ref = sandboxIn(place.remoteId, id)
            deps.joinLinks.revoke((l) => sameSandbox(l, ref))
            board.forget(ref)
          })
          res.writeHead(204).end()
        },
      }),
      route('/classes/([^/]+)/check', {
        POST: async (req, res, place, params) => {
          const name = classNameParam(params[0])
          const { sandboxIds } = await readJsonBody(req, someStudents, { optional: true })
          const chosen = await board.chosen(place, name, sandboxIds)
          const { passed, checked } = await board.check(place, chosen)
          sendJson(res, 200, { passed, checked, students: chosen.length } satisfies ClassCheckAnswer)
        },
      }),
      route('/classes/([^/]+)/(pause|resume)', {
        POST: async (req, res, place, params) => {
          const { sandboxIds } = await readJsonBody(req, someStudents, { optional: true })
          const resume = params[1] === 'resume'
          // Only those that are not already so: pausing a paused sandbox is a 409 on its own.
          const chosen = await board.chosen(place, classNameParam(params[0]), sandboxIds)
          const changing = chosen.filter((m) => (m.state === 'paused') === resume).map((m) => m.sandboxId)
          await Promise.all(changing.map((id) => (resume ? place.resume(id) : place.pause(id))))
          sendJson(res, 200, { changed: changing.length })
        },
      }),
      route('/classes/([^/]+)/timeout', {
        POST: async (req, res, place, params) => {
          const { sandboxIds, seconds } = await readJsonBody(req, extendBody)
          const changed = await forEach(place, classNameParam(params[0]), sandboxIds, (id) =>
            place.setTimeout(id, seconds),
          )
          sendJson(res, 200, { changed })
        },
      }),
      route('/sandboxes/([^/]+)/lab-reset', {
        POST: async (_req, res, place, params) => {
          const id = params[0] ?? ''
          if (!sandboxId(id)) throw new PlatformError(400, 'invalid sandbox id')
          await board.reset(place, id)
          res.writeHead(204).end()
        },
      }),
    ]
  }
  return places.flatMap(routesAt)
}
