import { backoffDelay } from '../../common/backoff'
import type { SandboxSession } from '../SandboxSession'
import type { Presence } from './Presence'
import type { SharedDocuments } from './SharedDocuments'

/** Texts over this many characters are not shared: each page edits its own copy, as before. */
export const maxSharedChars = 4 * 1024 * 1024

/** Co-editing for one page of a sandbox: its shared documents and who else is there. */
export interface Collaboration {
  documents: SharedDocuments
  presence: Presence
  dispose(): void
}

/**
 * Loads co-editing (Yjs and the relay, a chunk of their own) for a session, once it is first
 * wanted: when the first file opens. `name` is how the others see this person.
 */
export async function loadCollaboration(
  session: SandboxSession,
  name: string,
  /** A view-only guest's page: it only listens (see RelayChannel). */
  { readOnly = false }: { readOnly?: boolean } = {},
): Promise<Collaboration> {
  const [{ RelayChannel }, { Presence }, { SharedDocuments }] = await Promise.all([
    import('./RelayChannel'),
    import('./Presence'),
    import('./SharedDocuments'),
  ])
  const channel = new RelayChannel(session, readOnly)
  const presence = new Presence(channel, { name })
  const documents = new SharedDocuments(channel, presence)
  // A relay lost (the sandbox paused, the link dropped, the process killed) is found or started
  // again while the sandbox runs; edits made meanwhile go once it is back (each side says hello).
  let attempt = 0
  let timer: ReturnType<typeof setTimeout> | undefined
  let disposed = false
  const reconnect = () => {
    if (disposed || channel.open || timer || session.getSnapshot().state.kind !== 'running') return
    timer = setTimeout(
      () => {
        timer = undefined
        if (disposed || channel.open) return
        attempt++
        channel.connect().then(() => {
          attempt = 0
        }, reconnect)
      },
      backoffDelay(attempt + 1, { initialMs: 250, maxMs: 10_000, jitter: 0.2 }),
    )
  }
  // A tab that closes says so at once, rather than lingering in the others' toolbars for 30 s.
  const away = () => presence.setAway(true)
  const back = () => presence.setAway(false)
  globalThis.addEventListener?.('pagehide', away)
  globalThis.addEventListener?.('pageshow', back)
  const stops = [
    channel.onStateChange(reconnect),
    session.subscribe(reconnect),
    () => {
      globalThis.removeEventListener?.('pagehide', away)
      globalThis.removeEventListener?.('pageshow', back)
    },
  ]
  return {
    documents,
    presence,
    dispose() {
      disposed = true
      clearTimeout(timer)
      for (const stop of stops) stop()
      documents.dispose()
      presence.dispose()
      channel.dispose()
    },
  }
}
