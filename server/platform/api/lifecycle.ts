import { PlatformError } from '../platformError'

/** The lifecycle fields of E2B's NewSandbox, as a create body carries them. */
export interface LifecycleFields {
  autoPause?: boolean | undefined
  autoPauseMemory?: boolean | undefined
  autoResume?: { enabled: boolean } | undefined
}

/**
 * E2B's checks of those fields taken together, in its order and with its 400 messages (its API's
 * sandbox_create.go). The API, unlike the SDKs, takes `autoResume` without `autoPause`: such a
 * sandbox is killed at its timeout, and traffic resumes it after an explicit pause.
 */
export function checkLifecycle({ autoPause = false, autoPauseMemory = true, autoResume }: LifecycleFields) {
  if (!autoPauseMemory && !autoPause) {
    throw new PlatformError(400, 'autoPauseMemory=false only applies when autoPause is true.')
  }
  if (!autoPauseMemory && autoResume?.enabled) {
    throw new PlatformError(
      400,
      'autoPauseMemory=false (filesystem-only auto-pause) cannot be combined with autoResume: a filesystem-only snapshot cannot be auto-resumed by traffic and must be resumed explicitly.',
    )
  }
}
