import type { SandboxSession } from '../../sandbox/SandboxSession'
import { copyText } from '../../ui/copyText'
import { reportErrors } from '../../ui/notifications'

/** How much "Extend" adds to the time left. */
export const extendBySeconds = 30 * 60

/** The sandbox actions the toolbar and the command palette share; errors show the server's message. */
export function sandboxActions(session: SandboxSession) {
  return {
    pause: () => reportErrors('Pause failed', () => session.pause()),
    resume: () => reportErrors('Resume failed', () => session.resume()),
    extend: () =>
      reportErrors('Extending the timeout failed', () => {
        const { endAt } = session.getSnapshot()
        const left = endAt === undefined ? 0 : Math.max(0, (endAt - Date.now()) / 1000)
        return session.extend(Math.round(left) + extendBySeconds)
      }),
    retryNow: () => session.retryNow(),
    copyId: () =>
      reportErrors('Copying the sandbox id failed', () => copyText(session.getSnapshot().sandboxId ?? '')),
  }
}
