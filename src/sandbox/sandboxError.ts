import { Code, ConnectError } from '@connectrpc/connect'
import { FilesError } from '../api/files'
import { ApiError } from '../api/ideApi'
import { noSpaceLeft } from '../contract/runtimeExtensions'

/** What went wrong with a call to a sandbox, in the few kinds the IDE acts on. */
export type SandboxErrorKind =
  | 'not-connected'
  | 'signed-out'
  | 'not-found'
  | 'already-exists'
  | 'invalid'
  | 'denied'
  | 'unavailable'
  /** The sandbox's disk is full (envd's 507). */
  | 'no-space'
  | 'failed'

/** A failed sandbox call: its kind, and the server's own message (what the UI shows). */
export class SandboxError extends Error {
  constructor(
    readonly kind: SandboxErrorKind,
    message: string,
  ) {
    super(message)
  }
}

/** One message for every call made while the session knows no runtime. */
export const notConnected = () => new SandboxError('not-connected', 'the sandbox is not connected')

const byCode: Partial<Record<Code, SandboxErrorKind>> = {
  [Code.NotFound]: 'not-found',
  [Code.AlreadyExists]: 'already-exists',
  [Code.InvalidArgument]: 'invalid',
  [Code.FailedPrecondition]: 'invalid',
  [Code.OutOfRange]: 'invalid',
  [Code.PermissionDenied]: 'denied',
  [Code.Unauthenticated]: 'denied',
  [Code.Unavailable]: 'unavailable',
  [Code.DeadlineExceeded]: 'unavailable',
}

function kindOfStatus(status: number): SandboxErrorKind {
  if (status === 404) return 'not-found'
  if (status === 400) return 'invalid'
  if (status === 401 || status === 403) return 'denied'
  if (status === 0 || status === 502 || status === 503 || status === 504) return 'unavailable'
  if (status === 507) return 'no-space'
  return 'failed'
}

/**
 * The IDE's words for envd's 507 wherever a write runs out of room, with what is left where this
 * project's runtime tells it (src/contract/runtimeExtensions.ts), in MB as `df -h` counts them:
 * "No space left in the sandbox (0.4 MB free)"; without a figure against envd.
 */
export function noSpaceMessage(serverMessage: string): string {
  const left = noSpaceLeft(serverMessage)
  const mb = typeof left === 'number' ? left / 1048576 : -1
  const detail =
    left === 'quota'
      ? 'over its disk quota'
      : mb < 0
        ? ''
        : `${mb < 10 ? +mb.toFixed(1) : Math.round(mb)} MB free`
  const files = serverMessage.includes('inodes') ? ': too many files' : ''
  return `No space left in the sandbox${files}${detail && ` (${detail})`}`
}

/**
 * The SandboxError for anything a Connect call or /files threw, with the server's own words; a
 * full disk with the IDE's (noSpaceMessage).
 */
export function sandboxError(err: unknown): SandboxError {
  if (err instanceof SandboxError) return err
  if (err instanceof ConnectError) return new SandboxError(byCode[err.code] ?? 'failed', err.rawMessage)
  if (err instanceof FilesError && err.status === 507)
    return new SandboxError('no-space', noSpaceMessage(err.message))
  if (err instanceof FilesError) return new SandboxError(kindOfStatus(err.status), err.message)
  // The stack's 401: this browser has not signed in with the IDE's link (or the token was rotated).
  if (err instanceof ApiError)
    return new SandboxError(err.status === 401 ? 'signed-out' : kindOfStatus(err.status), err.message)
  return new SandboxError('failed', err instanceof Error ? err.message : String(err))
}

/** Whether a failure says the file, folder or process is not there. */
export const isNotFound = (err: unknown) => sandboxError(err).kind === 'not-found'

/** Runs `call`, turning whatever it throws into a SandboxError (a cancel stays an AbortError). */
export async function mapped<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call()
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err
    throw sandboxError(err)
  }
}
