import { z } from 'zod'
import type { ClassDeadline, DueView } from '../../../src/contract/deadlines'
import { readJsonBody, sendJson } from '../api/httpJson'
import type { ClassDeadlines } from '../class/classDeadlines'
import type { SubmissionStore } from '../class/grading/submissionStore'
import { isSandboxId } from '../ids'
import { PlatformError } from '../platformError'
import type { SandboxManager } from '../sandboxManager'
import type { ClassScope, ScopedPrefix } from './classScope'
import { E2bClient } from './e2bClient'
import { isE2bSandboxId } from './e2bSandboxId'
import type { IdeRoute } from './ideRoute'
import { isRemoteId, type RemoteStore } from './remoteStore'

/** A time as ISO 8601 (with its offset, or the stack's local time without), kept in UTC. */
const time = z
  .string()
  .max(64)
  .refine((t) => !Number.isNaN(Date.parse(t)), 'must be a time such as 2026-06-01T17:00:00Z')
  .transform((t) => new Date(t).toISOString())

const deadlineBody = z.strictObject({
  deadline: time.nullable(),
  late: z.discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('refuse') }),
    z.strictObject({ kind: z.literal('late'), penaltyPercentPerDay: z.number().min(0).max(100) }),
  ]),
  counts: z.enum(['best', 'last']),
  examMode: z.boolean(),
})
const extensionBody = z.strictObject({ until: time })

/**
 * A class's deadline, kept here by the class's name (a class of the stack's own, `/classes/{name}/…`,
 * or one on E2B, `/remotes/{remoteId}/classes/{name}/…`, whose students E2B lists): the teacher
 * reads and sets it, its late and counting policies and exam mode (the stack's own classes only),
 * and one student's extension (the owner only: a student's or a guest's sign-in gets 403, so
 * nobody extends their own); a student's page reads their own deadline from their sandbox.
 */
export function deadlineRoutes(deps: {
  manager: SandboxManager
  store: SubmissionStore
  deadlines: ClassDeadlines
  /** A deadline or extension changed: exam mode looks again at once. */
  changed: () => void
  /** The E2B remotes whose classes' students read their deadline here too. */
  remotes?: Pick<RemoteStore, 'get'>
  /** Where the class routes answer: the stack's own classes and the E2B remotes' (see classScope). */
  scopes: ScopedPrefix[]
}): IdeRoute[] {
  const { manager, store, deadlines } = deps
  /** The class's students (of its sandboxes, and of its submissions), or 404 for no such class. */
  const studentsOf = async (scope: ClassScope) => {
    const students = new Set<string>()
    for (const m of await scope.members()) students.add(m.metadata.student ?? m.sandboxId)
    for (const { submission } of store.all()) if (scope.holds(submission)) students.add(submission.student)
    if (students.size === 0) throw scope.missing()
    return students
  }
  /** A student's deadline as their page reads it, from their sandbox's `class` and `student`. */
  const dueView = (metadata: Record<string, string>, sandboxId: string): DueView => {
    const deadline = deadlines.get(metadata.class ?? '')
    const student = metadata.student ?? sandboxId
    const dueAt = metadata.class ? (deadlines.dueOf(metadata.class, student) ?? null) : null
    return {
      dueAt,
      extended: metadata.class !== undefined && Object.hasOwn(deadline.extensions, student),
      late: deadline.late,
      examMode: deadline.examMode,
      now: new Date().toISOString(),
    }
  }
  /** The class's routes, the stack's own (`/classes/…`) and an E2B remote's (`/remotes/{r}/classes/…`). */
  const classRoutesAt = ({ prefix, scopeOf }: ScopedPrefix): IdeRoute[] => {
    const extension =
      (set: boolean): NonNullable<IdeRoute['methods']['PUT']> =>
      async (req, res, params) => {
        const { scope, rest } = scopeOf(params)
        const student = decodeURIComponent(rest[0] ?? '')
        if (!(await studentsOf(scope)).has(student))
          throw new PlatformError(404, `class '${scope.name}' has no student '${student}'`)
        const until = set ? (await readJsonBody(req, extensionBody)).until : null
        const answer = deadlines.extend(scope.name, student, until)
        deps.changed()
        sendJson(res, 200, answer satisfies ClassDeadline)
      }
    return [
      {
        pattern: new RegExp(`^${prefix}/classes/([^/]+)/deadline$`),
        methods: {
          GET: async (_req, res, params) => {
            const { scope } = scopeOf(params)
            await studentsOf(scope)
            sendJson(res, 200, deadlines.get(scope.name) satisfies ClassDeadline)
          },
          PUT: async (req, res, params) => {
            const { scope } = scopeOf(params)
            await studentsOf(scope)
            const { deadline, ...rest } = await readJsonBody(req, deadlineBody)
            // Exam mode pauses the stack's own sandboxes at the deadline and keeps them closed;
            // nothing closes a sandbox on E2B, so a class there is not told it has it.
            if (scope.remoteId && rest.examMode)
              throw new PlatformError(
                400,
                'exam mode is for the classes of the stack itself: it cannot close sandboxes on E2B at the deadline (the deadline and late marking still apply)',
              )
            const answer = deadlines.set(scope.name, { ...rest, ...(deadline ? { deadline } : {}) })
            deps.changed()
            sendJson(res, 200, answer satisfies ClassDeadline)
          },
        },
      },
      {
        pattern: new RegExp(`^${prefix}/classes/([^/]+)/extensions/([^/]+)$`),
        methods: { PUT: extension(true), DELETE: extension(false) },
      },
    ]
  }
  return [
    ...deps.scopes.flatMap(classRoutesAt),
    {
      pattern: /^\/sandboxes\/([^/]+)\/deadline$/,
      students: 'own-sandbox',
      methods: {
        GET: async (_req, res, params) => {
          const sandboxId = params[0] ?? ''
          if (!isSandboxId(sandboxId)) throw new PlatformError(400, 'invalid sandbox id')
          sendJson(res, 200, dueView(manager.get(sandboxId).metadata, sandboxId))
        },
      },
    },
    {
      // A class on E2B keeps its deadline here too, by its name, as its submissions do.
      pattern: /^\/remotes\/([^/]+)\/sandboxes\/([^/]+)\/deadline$/,
      students: 'own-sandbox',
      sandboxOf: (params) => ({ remoteId: params[0] ?? '', sandboxId: params[1] ?? '' }),
      methods: {
        GET: async (_req, res, params) => {
          const remoteId = params[0] ?? ''
          const sandboxId = params[1] ?? ''
          if (!isRemoteId(remoteId)) throw new PlatformError(400, 'invalid remote id')
          if (!isE2bSandboxId(sandboxId)) throw new PlatformError(400, 'invalid sandbox id')
          if (!deps.remotes) throw new PlatformError(404, `no E2B remote '${remoteId}': add it again`)
          const detail = await new E2bClient(deps.remotes.get(remoteId)).sandbox(sandboxId)
          sendJson(res, 200, dueView(detail.metadata ?? {}, sandboxId))
        },
      },
    },
  ]
}
