// A class on the local stack: one sandbox per student, all from the same template, made through
// the platform's E2B API (so the same code serves a class from any E2B-compatible platform).
import { ideLink } from '../platform/access/ideLink'

/** Where the platform is and the key it wants. */
export interface PlatformAccess {
  /** Base URL of the stack, e.g. http://127.0.0.1:8787 */
  url: string
  apiKey: string
  /** The stack's IDE token, when known: the students' addresses then open the IDE signed in. */
  ideToken?: string
}

/** One student's sandbox and the page that opens it in the IDE. */
export interface StudentSandbox {
  student: string
  sandboxId: string
  ideUrl: string
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

function ideUrl(access: PlatformAccess, id: string): string {
  const path = `/sandbox/${encodeURIComponent(id)}`
  return access.ideToken ? ideLink(access.url, access.ideToken, path) : `${access.url}${path}`
}

/**
 * Creates every student's sandbox at once. Returns those made, in the students' order, and the
 * students whose sandbox could not be made with the platform's reason (the others are kept).
 */
export async function startClass(
  access: PlatformAccess,
  options: StartClassOptions,
): Promise<{ sandboxes: StudentSandbox[]; failures: { student: string; error: string }[] }> {
  const results = await Promise.allSettled(
    options.students.map(async (student) => {
      const res = await call(access, 'POST', '/v2/sandboxes', {
        templateID: options.template,
        timeout: options.timeoutSeconds,
        autoPause: true,
        metadata: { class: options.className, student },
      })
      const { sandboxID } = (await res.json()) as { sandboxID: string }
      return { student, sandboxId: sandboxID, ideUrl: ideUrl(access, sandboxID) }
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

/** The sandboxes of a class (running or paused), by student name. */
export async function listClass(access: PlatformAccess, className: string): Promise<StudentSandbox[]> {
  const found: StudentSandbox[] = []
  let next: string | null = null
  do {
    const query = new URLSearchParams({
      metadata: new URLSearchParams({ class: className }).toString(),
      limit: '100',
    })
    if (next) query.set('nextToken', next)
    const res = await call(access, 'GET', `/v2/sandboxes?${query}`)
    const rows = (await res.json()) as { sandboxID: string; metadata: Record<string, string> }[]
    for (const row of rows) {
      found.push({
        student: row.metadata.student ?? '',
        sandboxId: row.sandboxID,
        ideUrl: ideUrl(access, row.sandboxID),
      })
    }
    next = res.headers.get('X-Next-Token')
  } while (next)
  return found.sort((a, b) => a.student.localeCompare(b.student, undefined, { numeric: true }))
}

/** Kills every sandbox of a class (their files go with them); returns how many there were. */
export async function endClass(access: PlatformAccess, className: string): Promise<number> {
  const sandboxes = await listClass(access, className)
  await Promise.all(sandboxes.map((s) => call(access, 'DELETE', `/sandboxes/${s.sandboxId}`)))
  return sandboxes.length
}
