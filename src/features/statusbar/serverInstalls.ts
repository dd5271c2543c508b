import { Subscribers } from '../../common/Subscribers'
import type { LanguageService } from '../../sandbox/language/LanguageService'
import { type NoticeSink, pageNotices, reportErrors } from '../../ui/notifications'
import type { InstallState } from './serverStatusText'

type Installer = Pick<LanguageService, 'install'>

/**
 * The installs of missing language servers this page asked for, by server: the status bar shows
 * them as they run and when they fail, whether the status bar's button or the palette asked.
 */
export class ServerInstalls {
  private states: ReadonlyMap<string, InstallState> = new Map()
  private readonly subscribers = new Subscribers()

  constructor(
    private readonly language: Installer,
    private readonly notices: NoticeSink = pageNotices,
  ) {}

  subscribe = this.subscribers.add

  getSnapshot = (): ReadonlyMap<string, InstallState> => this.states

  /** Runs a server's install command in the sandbox; a failure is shown with the command's own words. */
  install(key: string, name: string): Promise<void> {
    if (this.states.get(key)?.kind === 'installing') return Promise.resolve()
    this.set(key, { kind: 'installing' })
    return reportErrors(
      `Installing ${name} failed`,
      async () => {
        try {
          await this.language.install(key)
          this.set(key, undefined)
        } catch (err) {
          this.set(key, { kind: 'failed', error: err instanceof Error ? err.message : String(err) })
          throw err
        }
      },
      this.notices,
    )
  }

  private set(key: string, state: InstallState | undefined): void {
    const next = new Map(this.states)
    if (state) next.set(key, state)
    else next.delete(key)
    this.states = next
    this.subscribers.notify()
  }
}

const byService = new WeakMap<Installer, ServerInstalls>()

/** The installs of one workspace's servers, shared by the status bar and the palette. */
export function serverInstalls(language: Installer): ServerInstalls {
  let installs = byService.get(language)
  if (!installs) {
    installs = new ServerInstalls(language)
    byService.set(language, installs)
  }
  return installs
}
