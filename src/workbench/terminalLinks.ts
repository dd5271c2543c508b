import type { PreviewModel } from '../features/preview/PreviewModel'
import type { TerminalSettingsSource } from '../features/terminal/terminalSettings'
import type { SandboxSession } from '../sandbox/SandboxSession'
import { localPortLink } from '../sandbox/sandboxPorts'

/**
 * What a click on a link printed in a terminal does: a link to one of the sandbox's own ports
 * (`localhost:8000`) opens that port, in the preview when the user chose so, else in a new tab;
 * any other link opens in a new tab. New tabs get no handle back on the IDE.
 */
export function terminalLinkOpener(
  session: SandboxSession,
  preview: PreviewModel,
  settings: TerminalSettingsSource,
): (uri: string) => void {
  return (uri) => {
    const local = localPortLink(uri)
    if (local && settings.getState().localLinksOpen === 'preview' && session.portUrl(local.port)) {
      preview.open(local.port, local.path)
      return
    }
    window.open(session.linkTarget(uri), '_blank', 'noopener,noreferrer')
  }
}
