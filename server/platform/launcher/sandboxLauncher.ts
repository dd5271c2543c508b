import type { SandboxLimits } from '../../config'
import type { LimitEnforcer } from './sandboxLimits'

/** What the platform needs to start one sandbox's runtime. */
export interface LaunchSpec {
  /** Sandbox id: 20 lowercase alphanumerics. */
  id: string
  /** Host folder that becomes the sandbox's /home/user; kept across pause, resume and restarts. */
  homeDir: string
  /** The sandbox's envdAccessToken; never passed in argv or environment variables. */
  accessToken: string
  /** Environment for every process in the sandbox (E2B's envVars), plus E2B_SANDBOX and friends. */
  envVars: Record<string, string>
  /** What it may use. */
  limits: SandboxLimits
  /** No outbound network, even where the launcher could give it (a network of its own stays loopback only). */
  offline?: boolean
}

/** A sandbox runtime that is running (or frozen). */
export interface LaunchedSandbox {
  /** Loopback port the runtime listens on (inside the sandbox's own network when it has one). */
  port: number
  /** The Unix socket (host path) that reaches the runtime when its port is in a network of its own. */
  socketPath?: string
  /** Host pid of the outermost process (bwrap, or the runtime itself without isolation). */
  pid: number
  /** Host pids of the sandbox's processes now, parents first. */
  members(): Promise<number[]>
  /** Stops every process of the sandbox at once; idempotent. */
  freeze(): Promise<void>
  /** Lets them run again; idempotent. */
  thaw(): Promise<void>
  /** Kills every process of the sandbox and waits until they are gone. */
  kill(): Promise<void>
  /** Resolves when the sandbox's processes are gone, for whatever reason. */
  readonly exited: Promise<void>
}

/** Starts sandbox runtimes, isolated where the machine allows it. */
export interface SandboxLauncher {
  /** How sandboxes are isolated from the host and from each other. */
  readonly isolation: 'bubblewrap' | 'none'
  /**
   * The sandbox's network: 'own' (a namespace of its own, with outbound access through
   * slirp4netns), 'own-offline' (its own, loopback only: slirp4netns is missing) or 'host'.
   */
  readonly network: 'own' | 'own-offline' | 'host'
  /**
   * The sandbox's system: 'own-copy' (the host's /usr, /etc and package state as a base, each
   * sandbox's changes its own: `sudo apt-get install` changes no other), 'host-read-only' (the
   * host's, read-only) or 'host' (not isolated: the host's own, as the platform's user).
   */
  readonly system: 'own-copy' | 'host-read-only' | 'host'
  /** Why the system is the host's, read-only, where sandboxes have root. */
  readonly systemWarning?: string
  /**
   * Whether the sandbox has a root of its own: 'sudo' (the runtime is root in a user namespace
   * whose root and `user` are unprivileged host ids, and `user` has passwordless `sudo`) or
   * 'none' (everything runs as `user`; `rootWarning` says why).
   */
  readonly root: 'sudo' | 'none'
  readonly rootWarning?: string
  /** Which limits the kernel enforces, and why not where it does not. */
  readonly limits: Pick<LimitEnforcer, 'kind' | 'enforced' | 'warning'>
  /** How pause freezes a sandbox. */
  readonly freezer: 'cgroup-v2' | 'cgroup-v1' | 'signals'
  /** Why isolation is 'none', for the start banner and the API. */
  readonly warning?: string
  launch(spec: LaunchSpec): Promise<LaunchedSandbox>
  /** Lets go of what the launcher holds on the host for all sandboxes (their system's base), once they are gone. */
  release?(): Promise<void>
}
