// A class: one sandbox per student, all from the same template, made through the stack's E2B
// API, or on an E2B remote through the stack's IDE API (so the teacher's E2B key stays there).
import type { ClassDeadline } from '../../src/contract/deadlines'
import type { Gradebook } from '../../src/contract/gradebook'
import type { ClassView, JoinLinkView, SessionInfo } from '../../src/contract/ideApiTypes'
import { sandboxPagePath } from '../../src/contract/idePaths'

/** Where the platform is and the key it wants. */
export interface PlatformAccess {
  /** Base URL of the stack, e.g. http://127.0.0.1:8787 */
  url: string
  apiKey: string
  /**
   * The stack's IDE token, when known: each student then gets a join link of their own (made
   * through the IDE's API), which opens their sandbox and nothing else.
   */
  ideToken?: string
  /** Where students' browsers reach the stack (`--domain`'s address); the links name it. Default: url. */
  publicUrl?: string
  /**
   * An E2B remote the stack holds a key for (`POST /ide/api/remotes`): the class's sandboxes are
   * made there, and the stack serves only the IDE, the links and the dashboard.
   */
  remoteId?: string
}

/** One student's sandbox and the page that opens it in the IDE. */
export interface StudentSandbox {
  student: string
  sandboxId: string
  /** The student's join link (`/join#token=…`), or the sandbox's IDE page where no link can be made. */
  ideUrl: string
  /** When the student opened their link (it opens nothing more after that). */
  joinedAt?: string
}

export interface StartClassOptions {
  /** Names the class's sandboxes (metadata `class`), to list or end them later. */
  className: string
  template: string
  students: string[]
  /** Seconds each sandbox lives before it pauses (never dies: it holds a student's work). */
  timeoutSeconds: number
}

/** `count` student names: student-01, student-02, … */
export function numberedStudents(count: number): string[] {
  const width = Math.max(2, String(count).length)
  return Array.from({ length: count }, (_, i) => `student-${String(i + 1).padStart(width, '0')}`)
}

async function call(access: PlatformAccess, method: string, path: string, body?: unknown): Promise<Response> {
  const res = await fetch(`${access.url}${path}`, {
    method,
    headers: {
      'X-API-Key': access.apiKey,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  if (!res.ok) {
    const text = await res.text()
    let message = text
    try {
      message = (JSON.parse(text) as { message?: string }).message ?? text
    } catch {}
    throw new Error(`${method} ${path}: ${res.status} ${message}`)
  }
  return res
}

/** A call to the stack's IDE API as its owner (the IDE token), as a tool makes it. */
async function ideCall<T>(access: PlatformAccess, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${access.url}/ide/api${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${access.ideToken}`,
      'X-Sandbox-IDE': '1',
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const answer = (await res.json().catch(() => ({}))) as T & { message?: string }
  if (!res.ok)
    throw new IdeCallError(res.status, `${method} /ide/api${path}: ${res.status} ${answer.message ?? ''}`)
  return answer
}

/** The IDE API's refusal, with its status. */
class IdeCallError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}

/** The address a join link is opened at. */
const joinUrl = (access: PlatformAccess, link: JoinLinkView) =>
  `${access.publicUrl ?? access.url}/join#token=${link.token}`

/** A class's sandbox as its platform lists it. */
interface ListedStudent {
  sandboxId: string
  student: string
}

/** Where a class's sandboxes are made, listed and killed: the stack itself, or an E2B remote. */
interface ClassSandboxes {
  create(student: string, options: StartClassOptions): Promise<string>
  list(className: string): Promise<ListedStudent[]>
  kill(className: string, sandboxIds: string[]): Promise<void>
  /** The IDE API path of a sandbox, for its join links. */
  path(sandboxId: string): string
  /** What narrows a list of join links to this place. */
  linkQuery: Record<string, string>
}

function stackSandboxes(access: PlatformAccess): ClassSandboxes {
  return {
    async create(student, options) {
      const res = await call(access, 'POST', '/v2/sandboxes', {
        templateID: options.template,
        timeout: options.timeoutSeconds,
        autoPause: true,
        metadata: { class: options.className, student },
      })
      return ((await res.json()) as { sandboxID: string }).sandboxID
    },
    async list(className) {
      const found: ListedStudent[] = []
      let next: string | null = null
      do {
        const query = new URLSearchParams({
          metadata: new URLSearchParams({ class: className }).toString(),
          limit: '100',
        })
        if (next) query.set('nextToken', next)
        const res = await call(access, 'GET', `/v2/sandboxes?${query}`)
        const rows = (await res.json()) as { sandboxID: string; metadata: Record<string, string> }[]
        for (const row of rows) found.push({ sandboxId: row.sandboxID, student: row.metadata.student ?? '' })
        next = res.headers.get('X-Next-Token')
      } while (next)
      return found
    },
    async kill(_className, sandboxIds) {
      await Promise.all(sandboxIds.map((id) => call(access, 'DELETE', `/sandboxes/${id}`)))
    },
    path: (sandboxId) => `/sandboxes/${sandboxId}`,
    linkQuery: {},
  }
}

function remoteSandboxes(access: PlatformAccess, remoteId: string): ClassSandboxes {
  const remote = `/remotes/${encodeURIComponent(remoteId)}`
  const classPath = (className: string) => `${remote}/classes/${encodeURIComponent(className)}`
  return {
    async create(student, options) {
      const session = await ideCall<SessionInfo>(access, 'POST', `${remote}/sandboxes`, {
        templateId: options.template,
        timeoutSeconds: options.timeoutSeconds,
        metadata: { class: options.className, student },
      })
      return session.sandboxId
    },
    async list(className) {
      try {
        const view = await ideCall<ClassView>(access, 'GET', classPath(className))
        return view.students.map((s) => ({ sandboxId: s.sandboxId, student: s.student }))
      } catch (err) {
        // No sandbox of the class on the remote: an empty class, as the stack's list says.
        if (err instanceof IdeCallError && err.status === 404) return []
        throw err
      }
    },
    async kill(className) {
      await ideCall(access, 'DELETE', classPath(className))
    },
    path: (sandboxId) => `${remote}/sandboxes/${sandboxId}`,
    linkQuery: { remoteId },
  }
}

/**
 * Gives the stack an E2B API key (checked there against E2B, kept in its data folder); the same
 * key again gives back the remote it already holds. Returns the remote's id.
 */
export async function addRemote(
  access: PlatformAccess,
  apiKey: string,
  apiUrl?: string,
  domain?: string,
): Promise<string> {
  if (!access.ideToken)
    throw new Error("a class on E2B needs the stack's IDE token: pass --data with its data folder")
  const remote = await ideCall<{ remoteId: string }>(access, 'POST', '/remotes', {
    apiKey,
    ...(apiUrl ? { apiUrl } : {}),
    ...(domain ? { domain } : {}),
  })
  return remote.remoteId
}

/** Where `access` puts a class's sandboxes. */
function classSandboxes(access: PlatformAccess): ClassSandboxes {
  if (access.remoteId === undefined) return stackSandboxes(access)
  if (!access.ideToken)
    throw new Error("a class on an E2B remote needs the stack's IDE token: pass --data with its data folder")
  return remoteSandboxes(access, access.remoteId)
}

/** A student's way in: a new join link where the stack can make one, else the sandbox's IDE page. */
async function studentUrl(
  access: PlatformAccess,
  sandboxId: string,
  student: string,
  className: string,
): Promise<string> {
  if (!access.ideToken) return `${access.publicUrl ?? access.url}${sandboxPagePath({ sandboxId })}`
  const link = await ideCall<JoinLinkView>(
    access,
    'POST',
    `${classSandboxes(access).path(sandboxId)}/join-links`,
    { student, className },
  )
  return joinUrl(access, link)
}

/**
 * Creates every student's sandbox at once. Returns those made, in the students' order, and the
 * students whose sandbox could not be made with the platform's reason (the others are kept).
 */
export async function startClass(
  access: PlatformAccess,
  options: StartClassOptions,
): Promise<{ sandboxes: StudentSandbox[]; failures: { student: string; error: string }[] }> {
  const place = classSandboxes(access)
  const results = await Promise.allSettled(
    options.students.map(async (student) => {
      const sandboxId = await place.create(student, options)
      return { student, sandboxId, ideUrl: await studentUrl(access, sandboxId, student, options.className) }
    }),
  )
  const sandboxes: StudentSandbox[] = []
  const failures: { student: string; error: string }[] = []
  results.forEach((result, i) => {
    const student = options.students[i] ?? ''
    if (result.status === 'fulfilled') sandboxes.push(result.value)
    else
      failures.push({
        student,
        error: result.reason instanceof Error ? result.reason.message : String(result.reason),
      })
  })
  return { sandboxes, failures }
}

/**
 * The sandboxes of a class (running or paused), by student name, each with its student's join
 * link (made now for a student who has none) and whether it was opened.
 */
export async function listClass(access: PlatformAccess, className: string): Promise<StudentSandbox[]> {
  const place = classSandboxes(access)
  const links = access.ideToken
    ? await ideCall<JoinLinkView[]>(
        access,
        'GET',
        `/join-links?${new URLSearchParams({ class: className, ...place.linkQuery })}`,
      )
    : []
  const found: StudentSandbox[] = []
  for (const { sandboxId, student } of await place.list(className)) {
    // The latest link of the sandbox: an earlier one may have been replaced.
    const link = links.filter((l) => l.sandboxId === sandboxId).at(-1)
    found.push({
      student,
      sandboxId,
      ideUrl: link ? joinUrl(access, link) : await studentUrl(access, sandboxId, student, className),
      ...(link?.claimedAt ? { joinedAt: link.claimedAt } : {}),
    })
  }
  return found.sort((a, b) => a.student.localeCompare(b.student, undefined, { numeric: true }))
}

/** Kills every sandbox of a class (their files go with them); returns how many there were. */
export async function endClass(access: PlatformAccess, className: string): Promise<number> {
  const place = classSandboxes(access)
  const sandboxes = await place.list(className)
  if (sandboxes.length > 0)
    await place.kill(
      className,
      sandboxes.map((s) => s.sandboxId),
    )
  return sandboxes.length
}

/**
 * A new join link for one student of a class (their browser was lost, or the link leaked): the
 * student's earlier links are revoked first, which ends the session of whoever opened them.
 */
export async function relinkStudent(
  access: PlatformAccess,
  className: string,
  student: string,
): Promise<StudentSandbox> {
  if (!access.ideToken)
    throw new Error("a new link needs the stack's IDE token: pass --data with its data folder")
  const place = classSandboxes(access)
  const sandbox = (await place.list(className)).find((s) => s.student === student)
  if (!sandbox) throw new Error(`class '${className}' has no student '${student}'`)
  const links = await ideCall<JoinLinkView[]>(
    access,
    'GET',
    `/join-links?${new URLSearchParams({ sandboxId: sandbox.sandboxId, ...place.linkQuery })}`,
  )
  for (const link of links) await ideCall(access, 'DELETE', `/join-links/${link.id}`)
  return { ...sandbox, ideUrl: await studentUrl(access, sandbox.sandboxId, student, className) }
}

/** A class's path in the IDE API: the stack's own, or an E2B remote's (`--remote`, `--e2b-api-key`). */
function classApiPath(access: PlatformAccess, className: string): string {
  const place = access.remoteId === undefined ? '' : `/remotes/${encodeURIComponent(access.remoteId)}`
  return `${place}/classes/${encodeURIComponent(className)}`
}

/** The class's gradebook's path: the stack keeps and grades the submissions, on E2B too. */
function gradesPath(access: PlatformAccess, className: string): string {
  if (!access.ideToken)
    throw new Error("the gradebook needs the stack's IDE token: pass --data with its data folder")
  return `${classApiPath(access, className)}/grades`
}

/** A class's gradebook: each student's counted score per lab, attempts, last submission. */
export function classGrades(access: PlatformAccess, className: string): Promise<Gradebook> {
  return ideCall<Gradebook>(access, 'GET', gradesPath(access, className))
}

/** A class's gradebook as the stack's CSV, byte for byte what the dashboard downloads. */
export async function classGradesCsv(access: PlatformAccess, className: string): Promise<string> {
  const path = `/ide/api${gradesPath(access, className)}?format=csv`
  const res = await fetch(`${access.url}${path}`, {
    headers: { Authorization: `Bearer ${access.ideToken}`, 'X-Sandbox-IDE': '1' },
  })
  const text = await res.text()
  if (!res.ok) {
    let message = text
    try {
      message = (JSON.parse(text) as { message?: string }).message ?? text
    } catch {}
    throw new IdeCallError(res.status, `GET ${path}: ${res.status} ${message}`)
  }
  return text
}

/** What `npm run class` sets of a class's deadline (see ClassDeadline); `deadline` null for none. */
export type DeadlineSettings = Omit<ClassDeadline, 'extensions' | 'deadline'> & { deadline: string | null }

/**
 * Sets a class's deadline, late policy, which grade counts and exam mode (the stack's own classes
 * only: a class on E2B answers 400 to it); what `changes` leaves out stays as it was.
 */
export async function setClassDeadline(
  access: PlatformAccess,
  className: string,
  changes: Partial<DeadlineSettings>,
): Promise<ClassDeadline> {
  if (!access.ideToken)
    throw new Error("a deadline needs the stack's IDE token: pass --data with its data folder")
  const path = `${classApiPath(access, className)}/deadline`
  const { extensions: _kept, deadline, ...now } = await ideCall<ClassDeadline>(access, 'GET', path)
  return ideCall<ClassDeadline>(access, 'PUT', path, {
    ...now,
    deadline: deadline ?? null,
    ...changes,
  } satisfies DeadlineSettings)
}
