import type { SandboxLimits } from '../config'

/** A sandbox as the platform remembers it across restarts (one entry of sandboxes.json). */
export interface SandboxRecord {
  sandboxID: string
  templateID: string
  envdAccessToken: string
  metadata: Record<string, string>
  envVars: Record<string, string>
  /** ISO time it was created. */
  startedAt: string
  /** ISO time its timeout expires. */
  endAt: string
  /** On timeout: pause (true) or kill (false). */
  autoPause: boolean
  /**
   * E2B's auto-resume (created with `autoResume: {enabled: true}`): a request to the paused
   * sandbox resumes it, for `timeoutSeconds` (E2B: the create's timeout, at least 5 minutes).
   * Absent (older records too): such a request gets the paused sandbox's 502.
   */
  autoResume?: { timeoutSeconds: number }
  state: 'running' | 'paused'
  /** What it may use (absent in records of older platforms: the stack's defaults then). */
  limits?: SandboxLimits
  /**
   * Its processes are gone (the platform stopped meanwhile): the files are kept, and resuming
   * starts a fresh runtime on them instead of thawing the old one.
   */
  processesLost?: boolean
  /** No outbound network (a grader sandbox), where the launcher gives each sandbox a network of its own. */
  offline?: true
}
