// What the local stack's IDE API (/ide/api) answers, shared by the page (src/api/ideApi.ts) and
// the server (server/platform/ide/), which checks its answers against these types.

export type SandboxState = 'running' | 'paused'

/** A local sandbox as the picker lists it. */
export interface SandboxSummary {
  sandboxId: string
  /** What its home started from: `base` (empty), or a folder of the stack's templates (labs). */
  templateId: string
  state: SandboxState
  startedAt: string
  endAt: string
  metadata: Record<string, string>
  processesLost: boolean
  isDefault: boolean
}

/** What the browser needs to talk to a sandbox's runtime. */
export interface SessionInfo {
  source: 'local' | 'e2b'
  sandboxId: string
  remoteId?: string
  state: SandboxState
  runtimeUrl: string
  /** Null where the sandbox was created without one (older E2B sandboxes). */
  accessToken: string | null
  endAt: string
  envdVersion: string
  processesLost?: boolean
  /** To a student's page: the teacher has this sandbox open now (sees its terminals and files). */
  teacherHere?: boolean
  /** To the owner's page: the student whose class sandbox this is (the owner is their teacher here). */
  student?: string
}

export interface StackInfo {
  isolation: 'bubblewrap' | 'none'
  /** Each sandbox's network: its own with outbound access, its own offline, or the host's. */
  network: 'own' | 'own-offline' | 'host'
  /** Each sandbox's system: its own copy of the host's (changes kept per sandbox), the host's read-only, or the host's own (not isolated). */
  system: 'own-copy' | 'host-read-only' | 'host'
  /** Whether each sandbox has a root of its own with passwordless `sudo` for `user`, and why not. */
  root: { kind: 'sudo' | 'none'; warning?: string }
  /** How the kernel bounds each sandbox's CPU, memory and processes, and which of them. */
  limits: {
    kind: 'cgroup-v2' | 'cgroup-v1' | 'none'
    enforced: ('cpu' | 'memory' | 'pids')[]
    warning?: string
  }
  /** How each sandbox's home is bounded in size: a file system of its own, or not at all (and why). */
  disk: { kind: 'ext4-image' | 'none'; warning?: string }
  freezer: string
  warning?: string
  envdVersion: string
  defaultSandboxId: string | null
}

/** Which parent pages may embed the IDE (/embed), and whose commands run without asking. */
export interface EmbedConfig {
  allowedOrigins: string[]
  trustedOrigins: string[]
}

export interface RemoteInfo {
  remoteId: string
  apiUrl: string
  domain: string
}

/** POST …/timeout: when the sandbox's new timeout runs out. */
export interface TimeoutAnswer {
  endAt: string
}

/** GET /ide/api/templates: what a new sandbox may start from, `base` first. */
export interface TemplateSummary {
  templateId: string
}

/** POST /ide/api/auth: the page key, the half of a browser's sign-in its page keeps (the cookie is the other). */
export interface SignInAnswer {
  pageKey: string
}

/**
 * GET /ide/api/auth, for a signed-in browser or a tool with the IDE's token: the owner (who
 * started the stack, or a teacher with its token) sees everything; a student, one sandbox.
 */
export type SignedInAnswer =
  | { signedIn: true; role: 'owner' }
  | { signedIn: true; role: 'student'; sandboxId: string; remoteId?: string; student: string }
  | {
      signedIn: true
      role: 'guest'
      sandboxId: string
      /** The name the owner gave the share link: what the others see. */
      name: string
      rights: ShareRights
      /** When the share ends (the page is cut off then). */
      expiresAt: string
    }

/** What a share link lets its guest do: everything the owner can in the sandbox, or watch. */
export type ShareRights = 'edit' | 'view'

/** POST /ide/api/sandboxes/{id}/share-links: what the owner asks for. */
export interface ShareLinkRequest {
  rights: ShareRights
  /** Minutes until the link, and the session it opens, end. */
  minutes: number
  /** The guest's name as the others see it; "Guest" unless said. */
  name?: string
}

/** A share link, as its owner sees it (`…/share-links`); opened as `{IDE origin}/join#token={token}`. */
export interface ShareLinkView {
  id: string
  sandboxId: string
  name: string
  rights: ShareRights
  token: string
  expiresAt: string
  /** When a browser opened it (it opens no other after that). */
  claimedAt?: string
}

/** POST /ide/api/join: a student's join link traded for this browser's session (the cookie is the other half). */
export interface JoinAnswer {
  pageKey: string
  /** The one sandbox the session opens. */
  sandboxId: string
  /** Where it lives when it is on an E2B remote: the page opens it as `/e2b/{remoteId}/{sandboxId}`. */
  remoteId?: string
}

/** A join link, as the teacher sees it (`POST /ide/api/sandboxes/{id}/join-links`, `GET /ide/api/join-links`). */
export interface JoinLinkView {
  id: string
  sandboxId: string
  /** The E2B remote the sandbox lives on; absent for the stack's own. */
  remoteId?: string
  student: string
  className?: string
  /** The link's secret; the address is `{IDE origin}/join#token={token}`. */
  token: string
  expiresAt: string
  /** When the student opened it (it opens nothing after that). */
  claimedAt?: string
}

/** Every error answer of the IDE API (and of the platform API), as E2B's. */
export interface ErrorBody {
  code: number
  message: string
}

/** A sandbox's latest use against what it may use (from E2B's metrics); null before any sample. */
export type SandboxUsage = {
  cpuUsedPct: number
  cpuCount: number
  memUsedMiB: number
  memTotalMiB: number
  /** When it was sampled (ISO time). */
  at: string
} | null

/** The last check of a student's lab that the teacher ran (a student's own checks stay in their IDE). */
export type CheckVerdict =
  | { at: string; passed: boolean; status: string; output: string }
  | { at: string; passed: null; error: string }

/** One student of a class on the teacher's dashboard. */
export interface ClassStudent {
  student: string
  sandboxId: string
  state: 'running' | 'paused'
  endAt: string
  /** The last call any browser made to the sandbox (a keystroke, a save), since the stack started. */
  lastActivityAt: string | null
  /** Their join link: none made, made but not opened yet, or opened (when). */
  link: { state: 'none' } | { state: 'waiting'; expiresAt: string } | { state: 'opened'; at: string }
  check: CheckVerdict | null
}

/** GET /ide/api/classes/{name}: the teacher's dashboard. */
export interface ClassView {
  name: string
  /** The E2B remote whose sandboxes the class is; absent for the stack's own. */
  remoteId?: string
  students: ClassStudent[]
}

/** GET /ide/api/classes: each class on the stack. */
export interface ClassSummary {
  name: string
  remoteId?: string
  students: number
  running: number
}

/** POST /ide/api/classes/{name}/check: every running student's lab checked, now. */
export interface ClassCheckAnswer {
  passed: number
  /** The students whose lab was checked (paused sandboxes are not). */
  checked: number
  students: number
}
