import type { JoinLinkView } from '../../../src/contract/ideApiTypes'
import type { JoinLink, JoinLinks } from '../access/joinLinks'
import { readJsonBody, sendJson } from '../api/httpJson'
import { isSandboxId } from '../ids'
import { PlatformError } from '../platformError'
import type { SandboxManager } from '../sandboxManager'
import { sandboxIn } from '../sandboxRef'
import { E2bClient } from './e2bClient'
import { isE2bSandboxId } from './e2bSandboxId'
import type { IdeRoute } from './ideRoute'
import { joinLinkBody } from './ideSchemas'
import { isRemoteId, type RemoteStore } from './remoteStore'

/** How long a join link waits to be opened unless the teacher says: a day, a class and its homework. */
const defaultExpirySeconds = 24 * 60 * 60

const view = (link: JoinLink): JoinLinkView => ({
  id: link.id,
  sandboxId: link.sandboxId,
  ...(link.remoteId ? { remoteId: link.remoteId } : {}),
  student: link.student,
  ...(link.className ? { className: link.className } : {}),
  token: link.token,
  expiresAt: link.expiresAt,
  ...(link.claimedAt ? { claimedAt: link.claimedAt } : {}),
})

/**
 * The owner's routes for students' join links: issue one for a sandbox (the stack's own, or one
 * on an E2B remote), list them, revoke one.
 */
export function joinLinkRoutes(deps: {
  joinLinks: JoinLinks
  manager: SandboxManager
  remotes: RemoteStore
}): IdeRoute[] {
  const { joinLinks, manager } = deps
  return [
    {
      pattern: /^\/sandboxes\/([^/]+)\/join-links$/,
      methods: {
        POST: async (req, res, params) => {
          const sandboxId = params[0] ?? ''
          if (!isSandboxId(sandboxId)) throw new PlatformError(400, 'invalid sandbox id')
          const body = await readJsonBody(req, joinLinkBody, { optional: true })
          // 404 for a sandbox that does not exist: a link must open something.
          const record = manager.get(sandboxId)
          const link = joinLinks.issue({
            sandboxId,
            student: body.student ?? record.metadata?.student ?? sandboxId,
            className: body.className ?? record.metadata?.class,
            expiresInSeconds: body.expiresInSeconds ?? defaultExpirySeconds,
          })
          sendJson(res, 201, view(link))
        },
      },
    },
    {
      pattern: /^\/remotes\/([^/]+)\/sandboxes\/([^/]+)\/join-links$/,
      methods: {
        POST: async (req, res, params) => {
          const [remoteId = '', sandboxId = ''] = params
          if (!isRemoteId(remoteId)) throw new PlatformError(400, 'invalid remote id')
          if (!isE2bSandboxId(sandboxId)) throw new PlatformError(400, 'invalid sandbox id')
          const body = await readJsonBody(req, joinLinkBody, { optional: true })
          // E2B's 404 for a sandbox that does not exist: a link must open something.
          const metadata = (await new E2bClient(deps.remotes.get(remoteId)).sandbox(sandboxId)).metadata ?? {}
          const link = joinLinks.issue({
            sandboxId,
            remoteId,
            student: body.student ?? metadata.student ?? sandboxId,
            className: body.className ?? metadata.class,
            expiresInSeconds: body.expiresInSeconds ?? defaultExpirySeconds,
          })
          sendJson(res, 201, view(link))
        },
      },
    },
    {
      pattern: /^\/join-links$/,
      methods: {
        GET: async (req, res) => {
          const query = new URL(req.url ?? '/', 'http://ide').searchParams
          const className = query.get('class') ?? undefined
          const remoteId = query.get('remoteId') ?? undefined
          const sandboxId = query.get('sandboxId') ?? undefined
          const links = joinLinks.list({
            ...(className ? { className } : {}),
            ...(remoteId ? { remoteId } : {}),
            ...(sandboxId ? { sandbox: sandboxIn(remoteId, sandboxId) } : {}),
          })
          sendJson(res, 200, links.map(view))
        },
      },
    },
    {
      pattern: /^\/join-links\/([A-Za-z0-9_-]{1,64})$/,
      methods: {
        DELETE: async (_req, res, params) => {
          if (joinLinks.revoke((l) => l.id === params[0]) === 0)
            throw new PlatformError(404, 'no such join link')
          res.writeHead(204).end()
        },
      },
    },
  ]
}
