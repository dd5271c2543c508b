/** What the editor knows of a language, as Monaco registers them. */
export interface LanguageInfo {
  id: string
  extensions?: string[]
  filenames?: string[]
  firstLine?: string
}

/**
 * The language of a file from its name (exact file names like "Dockerfile" first, then the
 * longest matching extension, so "a.d.ts" is TypeScript), else from its first line (a shebang);
 * "plaintext" when nothing matches.
 */
export function languageFor(fileName: string, firstLine: string, languages: LanguageInfo[]): string {
  const lower = fileName.toLowerCase()
  for (const lang of languages) {
    if (lang.filenames?.some((f) => f.toLowerCase() === lower)) return lang.id
  }
  let best: { id: string; length: number } | undefined
  for (const lang of languages) {
    for (const ext of lang.extensions ?? []) {
      const e = ext.toLowerCase()
      if (lower.endsWith(e) && (!best || e.length > best.length)) best = { id: lang.id, length: e.length }
    }
  }
  if (best) return best.id
  for (const lang of languages) {
    if (!lang.firstLine) continue
    try {
      if (new RegExp(lang.firstLine).test(firstLine)) return lang.id
    } catch {
      // A pattern this engine cannot compile only loses that hint.
    }
  }
  return 'plaintext'
}
