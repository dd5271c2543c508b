import type { RemoteInfo, SandboxUsage, SessionInfo, TimeoutAnswer } from '../../../src/contract/ideApiTypes'
import type { Caller } from '../access/ideCredentials'
import { readJsonBody, sendJson } from '../api/httpJson'
import type { TeacherPresence } from '../class/teacherPresence'
import { PlatformError } from '../platformError'
import { sandboxKey } from '../sandboxRef'
import { E2bClient } from './e2bClient'
import { isE2bSandboxId } from './e2bSandboxId'
import type { IdeHandler, IdeRoute } from './ideRoute'
import { addRemoteBody, remoteSandboxBody, resumeSandboxBody, sandboxTimeoutBody } from './ideSchemas'
import { remoteEndpoint } from './remoteEndpoint'
import { remoteSession } from './remoteSession'
import { isRemoteId, publicRemote, type RemoteStore, type StoredRemote } from './remoteStore'
import { latestUsage } from './sandboxUsage'

/** Timeout of an E2B sandbox resumed without one (seconds): the e2b SDK's default. */
const e2bDefaultTimeoutSeconds = 300

function remoteParam(store: RemoteStore, params: string[]): StoredRemote {
  const remoteId = params[0] ?? ''
  if (!isRemoteId(remoteId)) throw new PlatformError(400, 'invalid remote id')
  return store.get(remoteId)
}

function sandboxParam(params: string[]): string {
  const id = params[1] ?? ''
  if (!isE2bSandboxId(id)) throw new PlatformError(400, 'invalid sandbox id')
  return id
}

/**
 * Registers E2B remotes and forwards the IDE's platform calls for their sandboxes, so the API key
 * stays on this server; the browser gets only each sandbox's runtime URL and access token. A
 * student whose join link opens a sandbox on a remote may make these calls for it alone.
 */
export function remoteRoutes(deps: {
  store: RemoteStore
  /** Whether the teacher has a student's sandbox open, for the student's page. */
  presence: TeacherPresence
  log: (line: string) => void
}): IdeRoute[] {
  const { store, presence, log } = deps
  const sandboxRoute = (action: string, handler: IdeHandler): IdeRoute => ({
    pattern: new RegExp(`^/remotes/([^/]+)/sandboxes/([^/]+)/${action}$`),
    students: 'own-sandbox',
    sandboxOf: (params) => ({ remoteId: params[0] ?? '', sandboxId: params[1] ?? '' }),
    methods: { [action === 'session' || action === 'usage' ? 'GET' : 'POST']: handler },
  })
  /** A session as the caller's page sees it; the owner's asking counts as being there. */
  const session = async (remote: StoredRemote, id: string, caller: Caller | undefined) => {
    const detail = await new E2bClient(remote).sandbox(id)
    const answer = remoteSession(remote, detail)
    const key = sandboxKey({ remoteId: remote.remoteId, sandboxId: id })
    const student = detail.metadata?.class ? detail.metadata.student : undefined
    if (caller?.role === 'owner') presence.mark(key)
    if (caller?.role === 'owner' && student) return { ...answer, student } satisfies SessionInfo
    return (
      caller?.role === 'student' ? { ...answer, teacherHere: presence.here(key) } : answer
    ) satisfies SessionInfo
  }

  return [
    {
      pattern: /^\/remotes$/,
      methods: {
        GET: async (_req, res) => sendJson(res, 200, store.list().map(publicRemote) satisfies RemoteInfo[]),
        POST: async (req, res) => {
          const body = await readJsonBody(req, addRemoteBody).catch((err: unknown) => {
            // JSON.parse's message quotes the text it failed on: the key, here.
            if (err instanceof PlatformError && err.message.startsWith('malformed JSON'))
              throw new PlatformError(400, 'malformed JSON in the request body')
            throw err
          })
          const endpoint = remoteEndpoint(body.apiUrl, body.domain)
          try {
            await new E2bClient({ remoteId: '', ...endpoint, apiKey: body.apiKey }).checkKey()
          } catch (err) {
            if (err instanceof PlatformError && (err.status === 401 || err.status === 403))
              throw new PlatformError(400, `the E2B API refused this API key: ${err.message}`)
            if (err instanceof PlatformError && err.status !== 502)
              throw new PlatformError(
                502,
                `the E2B API could not check this API key (${err.status}): ${err.message}`,
              )
            throw err
          }
          const remote = store.add(endpoint, body.apiKey)
          log(`ide: E2B remote ${remote.remoteId} added (${remote.apiUrl}, sandboxes under ${remote.domain})`)
          sendJson(res, 201, publicRemote(remote) satisfies RemoteInfo)
        },
      },
    },
    {
      pattern: /^\/remotes\/([^/]+)$/,
      methods: {
        DELETE: async (_req, res, params) => {
          const { remoteId } = remoteParam(store, params)
          store.remove(remoteId)
          log(`ide: E2B remote ${remoteId} removed with its key`)
          res.writeHead(204).end()
        },
      },
    },
    {
      // A sandbox on the remote, made with the key kept here: `npm run class -- --remote` makes
      // a class's this way, so the teacher's E2B key never leaves the stack.
      pattern: /^\/remotes\/([^/]+)\/sandboxes$/,
      methods: {
        POST: async (req, res, params) => {
          const remote = remoteParam(store, params)
          const body = await readJsonBody(req, remoteSandboxBody)
          const client = new E2bClient(remote)
          const id = await client.create({
            templateId: body.templateId,
            timeoutSeconds: body.timeoutSeconds ?? e2bDefaultTimeoutSeconds,
            metadata: body.metadata ?? {},
          })
          log(`ide: E2B remote ${remote.remoteId} sandbox ${id}: created from ${body.templateId}`)
          sendJson(res, 201, await session(remote, id, undefined))
        },
      },
    },
    sandboxRoute('session', async (_req, res, params, caller) => {
      sendJson(res, 200, await session(remoteParam(store, params), sandboxParam(params), caller))
    }),
    sandboxRoute('usage', async (_req, res, params) => {
      const remote = remoteParam(store, params)
      sendJson(
        res,
        200,
        latestUsage(await new E2bClient(remote).metrics(sandboxParam(params))) satisfies SandboxUsage,
      )
    }),
    sandboxRoute('pause', async (_req, res, params) => {
      const remote = remoteParam(store, params)
      const id = sandboxParam(params)
      await new E2bClient(remote).pause(id)
      log(`ide: E2B remote ${remote.remoteId} sandbox ${id}: paused`)
      res.writeHead(204).end()
    }),
    sandboxRoute('resume', async (req, res, params, caller) => {
      const remote = remoteParam(store, params)
      const id = sandboxParam(params)
      const body = await readJsonBody(req, resumeSandboxBody, { optional: true })
      await new E2bClient(remote).connect(id, body.timeoutSeconds ?? e2bDefaultTimeoutSeconds)
      log(`ide: E2B remote ${remote.remoteId} sandbox ${id}: connected`)
      sendJson(res, 200, await session(remote, id, caller))
    }),
    sandboxRoute('timeout', async (req, res, params) => {
      const remote = remoteParam(store, params)
      const id = sandboxParam(params)
      const body = await readJsonBody(req, sandboxTimeoutBody)
      const client = new E2bClient(remote)
      await client.setTimeout(id, body.seconds)
      sendJson(res, 200, { endAt: (await client.sandbox(id)).endAt } satisfies TimeoutAnswer)
    }),
  ]
}
