import type { ShareLinkView } from '../../../src/contract/ideApiTypes'
import type { JoinLink, JoinLinks } from '../access/joinLinks'
import { readJsonBody, sendJson } from '../api/httpJson'
import { isSandboxId } from '../ids'
import { PlatformError } from '../platformError'
import type { SandboxManager } from '../sandboxManager'
import type { IdeRoute } from './ideRoute'
import { shareLinkBody } from './ideSchemas'

const view = (link: JoinLink): ShareLinkView => ({
  id: link.id,
  sandboxId: link.sandboxId,
  name: link.guest?.name ?? 'Guest',
  rights: link.guest?.rights ?? 'view',
  token: link.token,
  expiresAt: link.expiresAt,
  ...(link.claimedAt ? { claimedAt: link.claimedAt } : {}),
})

function sandboxIdParam(params: string[]): string {
  const id = params[0] ?? ''
  if (!isSandboxId(id)) throw new PlatformError(400, 'invalid sandbox id')
  return id
}

/**
 * The owner's share links to one of the stack's own sandboxes: a join link (used once, by one
 * browser, for an HttpOnly cookie) for a guest with edit or view-only rights, whose session ends
 * when the link expires or is revoked. Only the stack's own sandboxes: a guest's page reaches
 * them through the router, which holds back the sandbox's token and a view-only guest's changes
 * (an E2B sandbox's page would talk to E2B with the sandbox's own token, and nobody could).
 */
export function shareLinkRoutes(deps: { joinLinks: JoinLinks; manager: SandboxManager }): IdeRoute[] {
  const { joinLinks, manager } = deps
  return [
    {
      pattern: /^\/sandboxes\/([^/]+)\/share-links$/,
      methods: {
        POST: async (req, res, params) => {
          const sandboxId = sandboxIdParam(params)
          const body = await readJsonBody(req, shareLinkBody)
          // 404 for a sandbox that does not exist: a link must open something.
          manager.get(sandboxId)
          const name = body.name ?? 'Guest'
          const link = joinLinks.issue({
            sandboxId,
            student: name,
            expiresInSeconds: Math.round(body.minutes * 60),
            guest: { name, rights: body.rights },
          })
          sendJson(res, 201, view(link))
        },
        GET: async (_req, res, params) => {
          const sandboxId = sandboxIdParam(params)
          manager.get(sandboxId)
          sendJson(res, 200, joinLinks.list({ sandbox: { sandboxId }, kind: 'guest' }).map(view))
        },
      },
    },
    {
      pattern: /^\/share-links\/([A-Za-z0-9_-]{1,64})$/,
      methods: {
        // Its guest's page is cut off at once (the router ends its calls: see GuestCalls).
        DELETE: async (_req, res, params) => {
          if (joinLinks.revoke((l) => l.guest !== undefined && l.id === params[0]) === 0)
            throw new PlatformError(404, 'no such share link')
          res.writeHead(204).end()
        },
      },
    },
  ]
}
