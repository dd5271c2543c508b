// The local stack's IDE API (/ide/api): sandboxes and their connection details. The platform
// key never reaches the browser; the stack answers with per-sandbox runtime URLs and tokens.

import type { DueView } from '../contract/deadlines'
import type {
  ClassCheckAnswer,
  ClassSummary,
  ClassView,
  EmbedConfig,
  JoinAnswer,
  JoinLinkView,
  RemoteInfo,
  SandboxSummary,
  SandboxUsage,
  SessionInfo,
  ShareLinkRequest,
  ShareLinkView,
  SignedInAnswer,
  SignInAnswer,
  StackInfo,
  TemplateSummary,
  TimeoutAnswer,
} from '../contract/ideApiTypes'
import type { SubmissionView } from '../contract/submissions'

/** A failed call, with the server's own message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}

// The page key: half of this browser's sign-in (the other half is an HttpOnly cookie). Kept in
// localStorage, which only this origin reads (a cookie is sent to every port of the host too).
const pageKeyItem = 'sandbox-ide:page-key'
let pageKeyInMemory: string | null = null

function pageKey(): string | null {
  try {
    return localStorage.getItem(pageKeyItem)
  } catch {
    return pageKeyInMemory
  }
}

function keepPageKey(key: string): void {
  pageKeyInMemory = key
  try {
    localStorage.setItem(pageKeyItem, key)
  } catch {}
}

/** Calls /ide/api with this browser's sign-in; exported for the API's parts loaded with their feature (gradebookApi). */
export async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  let res: Response
  const key = pageKey()
  try {
    res = await fetch(`/ide/api${path}`, {
      method,
      headers: {
        'X-Sandbox-IDE': '1',
        ...(key === null ? {} : { 'X-Sandbox-IDE-Key': key }),
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
  } catch (err) {
    throw new ApiError(
      0,
      `the local stack is not reachable (${err instanceof Error ? err.message : String(err)})`,
    )
  }
  const text = await res.text()
  const json: unknown = text ? JSON.parse(text) : undefined
  if (!res.ok) {
    const message =
      typeof json === 'object' && json !== null && 'message' in json
        ? String(json.message)
        : `HTTP ${res.status}`
    throw new ApiError(res.status, message)
  }
  return json as T
}

/** Where a sandbox's platform calls go: the local stack's own sandboxes, or an E2B remote. */
export type PlatformPath =
  | { source: 'local'; sandboxId: string }
  | { source: 'e2b'; remoteId: string; sandboxId: string }

const base = (p: PlatformPath) =>
  p.source === 'local'
    ? `/sandboxes/${encodeURIComponent(p.sandboxId)}`
    : `/remotes/${encodeURIComponent(p.remoteId)}/sandboxes/${encodeURIComponent(p.sandboxId)}`

export const ideApi = {
  /** Trades the token of the IDE's link for this browser's sign-in (a cookie and the page key). */
  signIn: async (token: string) => {
    const { pageKey } = await call<SignInAnswer>('POST', '/auth', { token })
    keepPageKey(pageKey)
  },
  /** Trades a student's join link for this browser's session of one sandbox; answers the sandbox. */
  join: async (token: string): Promise<JoinAnswer> => {
    const answer = await call<JoinAnswer>('POST', '/join', { token })
    keepPageKey(answer.pageKey)
    return answer
  },
  /** Who this browser is signed in as; an ApiError with status 401 when it is not. */
  signedIn: () => call<SignedInAnswer>('GET', '/auth'),
  /** Whether this browser signed in here before (it keeps half of a sign-in, valid or not). */
  signedInBefore: () => pageKey() !== null,
  stack: () => call<StackInfo>('GET', '/stack'),
  sandboxes: () => call<SandboxSummary[]>('GET', '/sandboxes'),
  templates: () => call<TemplateSummary[]>('GET', '/templates'),
  createSandbox: (options: { templateId?: string; timeoutSeconds?: number } = {}) =>
    call<SandboxSummary>('POST', '/sandboxes', options),
  killSandbox: (sandboxId: string) => call<void>('DELETE', `/sandboxes/${encodeURIComponent(sandboxId)}`),
  session: (p: PlatformPath) => call<SessionInfo>('GET', `${base(p)}/session`),
  pause: (p: PlatformPath) => call<void>('POST', `${base(p)}/pause`),
  usage: (p: PlatformPath) => call<SandboxUsage>('GET', `${base(p)}/usage`),
  resume: (p: PlatformPath) => call<SessionInfo>('POST', `${base(p)}/resume`, {}),
  setTimeout: (p: PlatformPath, seconds: number) =>
    call<TimeoutAnswer>('POST', `${base(p)}/timeout`, { seconds }),
  addRemote: (apiKey: string, apiUrl?: string, domain?: string) =>
    call<RemoteInfo>('POST', '/remotes', {
      apiKey,
      ...(apiUrl ? { apiUrl } : {}),
      ...(domain ? { domain } : {}),
    }),
  remotes: () => call<RemoteInfo[]>('GET', '/remotes'),
  embedConfig: () => call<EmbedConfig>('GET', '/embed'),
  classes: (p: ClassPlace = {}) => call<ClassSummary[]>('GET', `${placePath(p)}/classes`),
  classView: (p: ClassPlace, name: string) => call<ClassView>('GET', classPath(p, name)),
  checkClass: (p: ClassPlace, name: string, sandboxIds?: string[]) =>
    call<ClassCheckAnswer>('POST', `${classPath(p, name)}/check`, sandboxIds ? { sandboxIds } : {}),
  /** Pauses or resumes the class's students (all, or those named) that are not so already. */
  pauseOrResumeClass: (p: ClassPlace, name: string, action: 'pause' | 'resume', sandboxIds?: string[]) =>
    call<{ changed: number }>('POST', `${classPath(p, name)}/${action}`, sandboxIds ? { sandboxIds } : {}),
  extendClass: (p: ClassPlace, name: string, seconds: number, sandboxIds?: string[]) =>
    call<{ changed: number }>('POST', `${classPath(p, name)}/timeout`, {
      seconds,
      ...(sandboxIds ? { sandboxIds } : {}),
    }),
  endClass: (p: ClassPlace, name: string) => call<void>('DELETE', classPath(p, name)),
  resetLab: (p: ClassPlace, sandboxId: string) =>
    call<void>('POST', `${placePath(p)}/sandboxes/${encodeURIComponent(sandboxId)}/lab-reset`),
  joinLinks: (p: ClassPlace, sandboxId: string) =>
    call<JoinLinkView[]>(
      'GET',
      `/join-links?${new URLSearchParams({ sandboxId, ...(p.remoteId ? { remoteId: p.remoteId } : {}) })}`,
    ),
  newJoinLink: (p: ClassPlace, sandboxId: string) =>
    call<JoinLinkView>('POST', `${placePath(p)}/sandboxes/${encodeURIComponent(sandboxId)}/join-links`, {}),
  revokeJoinLink: (linkId: string) => call<void>('DELETE', `/join-links/${encodeURIComponent(linkId)}`),
  shareLinks: (sandboxId: string) =>
    call<ShareLinkView[]>('GET', `/sandboxes/${encodeURIComponent(sandboxId)}/share-links`),
  newShareLink: (sandboxId: string, request: ShareLinkRequest) =>
    call<ShareLinkView>('POST', `/sandboxes/${encodeURIComponent(sandboxId)}/share-links`, request),
  revokeShareLink: (linkId: string) => call<void>('DELETE', `/share-links/${encodeURIComponent(linkId)}`),
  /** A graded lab's submissions from its sandbox (the stack's or an E2B remote's), oldest first; 409 for a sandbox of no graded lab. */
  submissions: (p: PlatformPath) => call<SubmissionView[]>('GET', `${base(p)}/submissions`),
  /** Submits the lab's files as they are on disk; answers once graded (a few seconds). */
  submit: (p: PlatformPath) => call<SubmissionView>('POST', `${base(p)}/submissions`),
  /** The deadline of the sandbox's student (their extension, else their class's). */
  due: (p: PlatformPath) => call<DueView>('GET', `${base(p)}/deadline`),
}

/** Where a class's sandboxes live: the stack's own, or an E2B remote's (its key kept on the stack). */
export type ClassPlace = { remoteId?: string }

export const placePath = (p: ClassPlace) => (p.remoteId ? `/remotes/${encodeURIComponent(p.remoteId)}` : '')
/** A class's path under /ide/api: `/classes/{name}`, under `/remotes/{remoteId}` for one on E2B. */
export const classPath = (p: ClassPlace, name: string) =>
  `${placePath(p)}/classes/${encodeURIComponent(name)}`
