import type { ReactNode } from 'react'
import { displayName } from '../../ui/displayName'

/**
 * `text` with the characters at `positions` (offsets into it from `offset`) in bold: the letters
 * typed, in Go to File's and Go to Symbol's rows.
 */
export function highlighted(text: string, positions: readonly number[], offset = 0): ReactNode[] {
  const marks = new Set(positions.map((p) => p - offset))
  const parts: ReactNode[] = []
  let run = ''
  let bold = false
  const flush = () => {
    if (run) parts.push(bold ? <b key={parts.length}>{displayName(run)}</b> : displayName(run))
    run = ''
  }
  for (let i = 0; i < text.length; i++) {
    if (marks.has(i) !== bold) {
      flush()
      bold = !bold
    }
    run += text[i]
  }
  flush()
  return parts
}
