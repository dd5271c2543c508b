import type { IncomingMessage } from 'node:http'
import type {
  SandboxUsage,
  SessionInfo,
  TemplateSummary,
  TimeoutAnswer,
} from '../../../src/contract/ideApiTypes'
import type { Caller } from '../access/ideCredentials'
import type { PortAccess } from '../access/portAccess'
import { readJsonBody, sendJson } from '../api/httpJson'
import type { TeacherPresence } from '../class/teacherPresence'
import { isSandboxId } from '../ids'
import { PlatformError } from '../platformError'
import type { SandboxManager } from '../sandboxManager'
import type { SandboxRecord } from '../sandboxRecord'
import type { TemplateCatalog } from '../templates/templateCatalog'
import type { IdeRoute } from './ideRoute'
import { createSandboxBody, resumeSandboxBody, sandboxTimeoutBody } from './ideSchemas'
import { localSession } from './localSession'
import { sandboxSummary } from './sandboxSummary'
import { latestUsage } from './sandboxUsage'

/** What the local sandbox routes need from the platform. */
export interface LocalSandboxDeps {
  manager: SandboxManager
  /** What a new sandbox may start from. */
  templates: Pick<TemplateCatalog, 'ids'>
  envdVersion: string
  /** The IDE's default sandbox while it exists. */
  defaultSandboxId: () => string | null
  /** Timeout of sandboxes the IDE creates or resumes without one (seconds). */
  defaultTimeoutSeconds: number
  /** --domain: sandboxes are reached under it by pages opened on it. */
  domain?: string
  /** Opening a sandbox lets a browser on another machine reach its ports. */
  portAccess: Pick<PortAccess, 'grant'>
  /** Whether the teacher has a student's sandbox open, for the student's page. */
  presence: TeacherPresence
  /** Throws when the caller may not resume this paused sandbox now (an exam whose deadline passed). */
  mayResume?: (record: SandboxRecord, caller: Caller | undefined) => void
}

function sandboxIdParam(params: string[]): string {
  const id = params[0] ?? ''
  if (!isSandboxId(id)) throw new PlatformError(400, 'invalid sandbox id')
  return id
}

/** The IDE's picker and session endpoints for the local platform's own sandboxes. */
export function localSandboxRoutes(deps: LocalSandboxDeps): IdeRoute[] {
  const { manager, envdVersion } = deps
  /** A session as the caller's page sees it; the owner's asking counts as being there. */
  const sessionFor = (
    req: IncomingMessage,
    record: SandboxRecord,
    caller: Caller | undefined,
  ): SessionInfo => {
    if (caller?.role === 'owner') deps.presence.mark(record.sandboxID)
    const session = localSession(record, req, envdVersion, deps.domain)
    const student = record.metadata.class ? record.metadata.student : undefined
    if (caller?.role === 'owner' && student) return { ...session, student }
    // A guest's page never holds the sandbox's token: its own, which the router checks and trades.
    if (caller?.role === 'guest') return { ...session, accessToken: caller.runtimeToken }
    return caller?.role === 'student'
      ? { ...session, teacherHere: deps.presence.here(record.sandboxID) }
      : session
  }
  return [
    {
      pattern: /^\/templates$/,
      methods: {
        GET: async (_req, res) => {
          sendJson(
            res,
            200,
            (await deps.templates.ids()).map((templateId) => ({ templateId })) satisfies TemplateSummary[],
          )
        },
      },
    },
    {
      pattern: /^\/sandboxes$/,
      methods: {
        GET: async (_req, res) => {
          const defaultId = deps.defaultSandboxId()
          sendJson(
            res,
            200,
            manager.list().map((r) => sandboxSummary(r, defaultId)),
          )
        },
        POST: async (req, res) => {
          const body = await readJsonBody(req, createSandboxBody, { optional: true })
          // An IDE sandbox holds someone's work: it pauses, never dies, when its time runs out.
          const record = await manager.create({
            templateID: body.templateId,
            timeout: body.timeoutSeconds ?? deps.defaultTimeoutSeconds,
            autoPause: true,
            metadata: { purpose: 'ide' },
          })
          sendJson(res, 201, sandboxSummary(record, deps.defaultSandboxId()))
        },
      },
    },
    {
      pattern: /^\/sandboxes\/([^/]+)$/,
      methods: {
        DELETE: async (_req, res, params) => {
          await manager.kill(sandboxIdParam(params))
          res.writeHead(204).end()
        },
      },
    },
    {
      pattern: /^\/sandboxes\/([^/]+)\/session$/,
      students: 'own-sandbox',
      methods: {
        GET: async (req, res, params, caller) => {
          const record = manager.get(sandboxIdParam(params))
          deps.portAccess.grant(req, res, caller, record.sandboxID)
          sendJson(res, 200, sessionFor(req, record, caller))
        },
      },
    },
    {
      pattern: /^\/sandboxes\/([^/]+)\/usage$/,
      students: 'own-sandbox',
      methods: {
        GET: async (_req, res, params) => {
          sendJson(res, 200, latestUsage(manager.metricsOf(sandboxIdParam(params))) satisfies SandboxUsage)
        },
      },
    },
    {
      pattern: /^\/sandboxes\/([^/]+)\/pause$/,
      students: 'own-sandbox',
      changesSandbox: true,
      methods: {
        POST: async (_req, res, params) => {
          await manager.pause(sandboxIdParam(params))
          res.writeHead(204).end()
        },
      },
    },
    {
      pattern: /^\/sandboxes\/([^/]+)\/resume$/,
      students: 'own-sandbox',
      methods: {
        POST: async (req, res, params, caller) => {
          const id = sandboxIdParam(params)
          const body = await readJsonBody(req, resumeSandboxBody, { optional: true })
          const before = manager.get(id)
          if (before.state === 'paused') deps.mayResume?.(before, caller)
          // Running: only a later timeout; paused: thawed, or a fresh runtime after a restart.
          const { record } = await manager.connect(id, body.timeoutSeconds ?? deps.defaultTimeoutSeconds)
          deps.portAccess.grant(req, res, caller, id)
          sendJson(res, 200, sessionFor(req, record, caller))
        },
      },
    },
    {
      pattern: /^\/sandboxes\/([^/]+)\/timeout$/,
      students: 'own-sandbox',
      changesSandbox: true,
      methods: {
        POST: async (req, res, params) => {
          const id = sandboxIdParam(params)
          const body = await readJsonBody(req, sandboxTimeoutBody)
          manager.setTimeout(id, body.seconds)
          sendJson(res, 200, { endAt: manager.get(id).endAt } satisfies TimeoutAnswer)
        },
      },
    },
  ]
}
