import type { ServerStatus } from '../../sandbox/language/LanguageService'

/** Where an install asked from this page stands (the service says nothing of it until it ends). */
export type InstallState = { kind: 'installing' } | { kind: 'failed'; error: string }

/** A server's item in the status bar: its words, a tooltip, and what its button does. */
export interface ServerStatusText {
  text: string
  title: string | undefined
  action: 'install' | 'retry' | undefined
}

/**
 * What the status bar says of one language server: nothing while it runs or is stopped (idle),
 * else its state in a few words, the reason in the tooltip. `restartInMs` is what is left of a
 * restart's wait (the status bar counts it down).
 */
export function serverStatusText(
  { name, state }: ServerStatus,
  install: InstallState | undefined,
  restartInMs: number,
): ServerStatusText | undefined {
  if (install?.kind === 'installing')
    return {
      text: `Installing ${name}…`,
      title: state.kind === 'missing' ? state.install : undefined,
      action: undefined,
    }
  switch (state.kind) {
    case 'running':
    case 'stopped':
      return undefined
    case 'starting':
      return { text: `${name}: starting…`, title: undefined, action: undefined }
    case 'restarting': {
      // A first start waits here, with no delay, for the sandbox to run: that is starting, not restarting.
      if (state.inMs === 0) return { text: `${name}: starting…`, title: state.reason, action: undefined }
      const seconds = Math.ceil(restartInMs / 1000)
      return {
        text: seconds > 0 ? `${name}: restarting in ${seconds} s` : `${name}: restarting…`,
        title: `${name} is restarting (${state.reason})`,
        action: undefined,
      }
    }
    case 'missing': {
      const title = [
        install?.kind === 'failed' ? `Installing failed: ${install.error}` : undefined,
        state.reason,
        state.install ? `Install runs: ${state.install}` : undefined,
      ]
        .filter(Boolean)
        .join('\n')
      return {
        text: install?.kind === 'failed' ? `${name}: install failed` : `${name} missing`,
        title,
        action: state.install ? 'install' : undefined,
      }
    }
    case 'failed':
      return { text: `${name} failed`, title: state.reason, action: 'retry' }
  }
}
