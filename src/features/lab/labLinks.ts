/** Where a link of the instructions leads: a file of the sandbox, a web page, or nowhere safe. */
export type LabLink = { kind: 'file'; path: string } | { kind: 'web'; href: string } | { kind: 'none' }

/**
 * Reads a link's target as Markdown on a code host does: relative to the instructions' own folder
 * (so `../main.py` from `.lab/instructions.md` is `main.py`). A relative link that would leave the
 * home folder, or any scheme but http, https and mailto, leads nowhere.
 */
export function labLink(href: string | undefined, instructionsPath: string): LabLink {
  if (!href) return { kind: 'none' }
  if (/^(https?:|mailto:)/i.test(href)) return { kind: 'web', href }
  if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('//') || href.startsWith('#')) {
    return { kind: 'none' }
  }
  let target: string
  try {
    target = decodeURIComponent(href.split(/[?#]/)[0] ?? '')
  } catch {
    return { kind: 'none' }
  }
  const parts = target.startsWith('/') ? [] : instructionsPath.split('/').slice(0, -1)
  for (const part of target.split('/')) {
    if (part === '..') {
      if (parts.length === 0) return { kind: 'none' }
      parts.pop()
    } else if (part && part !== '.') parts.push(part)
  }
  return parts.length > 0 ? { kind: 'file', path: parts.join('/') } : { kind: 'none' }
}
