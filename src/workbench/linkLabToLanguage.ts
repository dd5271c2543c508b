import type { LabManifest } from '../contract/labManifest'
import type { LanguageOverrides } from '../contract/languageTable'
import type { LabController } from '../features/lab/LabController'
import type { LanguageService } from '../sandbox/language/LanguageService'

/** What a lab's manifest asks of code intelligence: off (an exam), its own servers, or nothing. */
export function labLanguageOverrides(manifest: LabManifest): LanguageOverrides | undefined {
  if (!manifest.codeIntelligence) return { enabled: false, servers: {} }
  return manifest.languages
}

/**
 * Lays the lab's choices over the workspace's code intelligence while the lab shows, and takes
 * them away when it goes: `codeIntelligence: false` stops every server, `languages` changes the
 * table. A manifest gone wrong (its panel lists the problems) keeps what the last good one said,
 * so a broken edit does not bring an exam's code intelligence back. Returns a function that stops
 * following the lab.
 */
export function linkLabToLanguage(
  lab: Pick<LabController, 'subscribe' | 'getSnapshot'>,
  language: Pick<LanguageService, 'setLabOverrides'>,
): () => void {
  const follow = () => {
    const { lab: state } = lab.getSnapshot()
    if (state.kind === 'invalid') return
    language.setLabOverrides(state.kind === 'ready' ? labLanguageOverrides(state.manifest) : undefined)
  }
  const stop = lab.subscribe(follow)
  follow()
  return stop
}
