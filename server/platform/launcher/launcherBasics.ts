import { existsSync, realpathSync } from 'node:fs'
import { chooseFreezer, type FreezerPreference } from './chooseFreezer'
import type { Freezer } from './freezer'
import { ensureRuntimeBundle, type RuntimeBundle } from './runtimeBundle'
import { chooseLimits, type LimitEnforcer } from './sandboxLimits'

/** What every launch strategy starts runtimes with, found once on this machine. */
export interface LauncherBasics {
  /** One line per event, already prefixed with the sandbox id; never holds a token. */
  log: (line: string) => void
  freezer: Freezer
  limits: LimitEnforcer
  /** The host's node binary, its real path. */
  nodePath: string
  /** The runtime bundle, built again if it has gone since. */
  currentBundle(): Promise<RuntimeBundle>
  /** How long a runtime may take to listen. */
  startTimeoutMs: number
}

/** Builds the runtime bundle if stale and picks the freezer and the limits that work here. */
export async function prepareLauncherBasics(
  projectRoot: string,
  {
    log,
    freezer: preference,
    startTimeoutMs,
  }: Pick<LauncherBasics, 'log' | 'startTimeoutMs'> & {
    freezer: FreezerPreference
  },
): Promise<LauncherBasics> {
  const [firstBundle, { freezer, passedOver }] = await Promise.all([
    ensureRuntimeBundle(projectRoot),
    chooseFreezer(preference),
  ])
  for (const reason of passedOver) log(`launcher: freezer ${reason}`)
  const limits = await chooseLimits(freezer.kind)
  log(
    limits.kind === 'none'
      ? `launcher: ${limits.warning}`
      : `launcher: sandboxes bounded by ${limits.kind} (${limits.enforced.join(', ')})${limits.warning ? `; ${limits.warning}` : ''}`,
  )
  let bundle = firstBundle
  return {
    log,
    freezer,
    limits,
    nodePath: realpathSync(process.execPath),
    // `vite build` empties dist/, bundle included: build it again rather than fail a launch.
    currentBundle: async () => {
      if (!existsSync(bundle.file)) bundle = await ensureRuntimeBundle(projectRoot)
      return bundle
    },
    startTimeoutMs,
  }
}
