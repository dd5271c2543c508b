import { existsSync, mkdirSync } from 'node:fs'
import { userInfo } from 'node:os'
import { runtimeNodeFlags } from '../../nodeFlags'
import type { LauncherBasics } from './launcherBasics'
import { launchRuntime } from './launchRuntime'
import { runtimeFlags, runtimeStdin } from './runtimeInvocation'
import type { LaunchSpec, SandboxLauncher } from './sandboxLauncher'

/** Kills the runtime if the platform dies, as bwrap's --die-with-parent does for sandboxes. */
const setprivPath = '/usr/bin/setpriv'

/** No isolation: where bubblewrap cannot build a sandbox here, or isolation is turned off (`reason`). */
export function unisolatedLauncher(basics: LauncherBasics, reason: string): SandboxLauncher {
  const { log, freezer, limits, nodePath } = basics
  const me = userInfo().username
  const warning = `sandboxes are NOT isolated: ${reason}; each runtime runs directly on this machine as '${me}' and can reach everything '${me}' can`
  log(`launcher: ${warning}`)
  const node = [nodePath, ...runtimeNodeFlags]
  const runner = existsSync(setprivPath) ? [setprivPath, '--pdeathsig', 'KILL', '--', ...node] : node
  return {
    isolation: 'none',
    network: 'host',
    system: 'host',
    root: 'none',
    limits,
    freezer: freezer.kind,
    warning,
    launch: async (spec: LaunchSpec) => {
      mkdirSync(spec.homeDir, { recursive: true })
      const { file } = await basics.currentBundle()
      const oomEvents = limits.oomEvents?.(spec.id)
      const [command = nodePath, ...args] = [
        ...runner,
        file,
        ...runtimeFlags(me, spec.homeDir, { port: 0, ...(oomEvents ? { oomEvents } : {}) }),
      ]
      return launchRuntime({
        id: spec.id,
        command,
        args,
        stdin: runtimeStdin(spec),
        freezer,
        scope: 'descendants',
        log,
        startTimeoutMs: basics.startTimeoutMs,
        limits: { enforcer: limits, values: spec.limits },
      })
    },
  }
}
