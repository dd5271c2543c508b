import { diffArrays } from 'diff'

/** One replacement in a text, by character offsets into it. */
export interface TextEdit {
  start: number
  end: number
  text: string
}

/** Lines `start` to `end` of the base (end excluded) became `lines`. */
interface Hunk {
  start: number
  end: number
  lines: string[]
}

/** A change bigger than this many lines added and removed is not merged (the conflict bar asks). */
const maxChangedLines = 5_000

/** A text's lines, each with its line break (the last may have none). */
function linesOf(text: string): string[] {
  return text === '' ? [] : text.split(/(?<=\n)/)
}

/** What changed from `base` to `other`, as hunks in the base's lines; undefined if too much did. */
function hunksOf(base: string[], other: string[]): Hunk[] | undefined {
  const changes = diffArrays(base, other, { maxEditLength: maxChangedLines })
  if (!changes) return undefined
  const hunks: Hunk[] = []
  let at = 0
  let open: Hunk | undefined
  for (const change of changes) {
    if (!change.added && !change.removed) {
      open = undefined
      at += change.count
      continue
    }
    if (!open) {
      open = { start: at, end: at, lines: [] }
      hunks.push(open)
    }
    if (change.removed) {
      at += change.count
      open.end = at
    } else open.lines.push(...change.value)
  }
  return hunks
}

const sameHunk = (a: Hunk, b: Hunk) =>
  a.start === b.start &&
  a.end === b.end &&
  a.lines.length === b.lines.length &&
  a.lines.every((line, i) => line === b.lines[i])

/**
 * The edits that bring into `ours` the change from `base` to `theirs`, leaving `ours`'s own
 * changes as they are: a three-way merge by lines with diff3's rules (as git's: changes to the
 * same or to adjacent lines conflict; the same change made on both sides does not). Undefined on
 * a conflict, or where a side changed more than a few thousand lines. The edits are in `ours`'s
 * offsets, in order, and touch only the lines `theirs` changed, so a cursor elsewhere stays put.
 *
 * The line diffs are jsdiff's (Myers' algorithm: its time grows with the size of the change, not
 * of the text, so a big file with a small change outside merges at once); the merge on top is ours.
 */
export function mergeEdits(base: string, ours: string, theirs: string): TextEdit[] | undefined {
  const o = linesOf(base)
  const a = linesOf(ours)
  const oursHunks = hunksOf(o, a)
  const theirHunks = hunksOf(o, linesOf(theirs))
  if (!oursHunks || !theirHunks) return undefined

  // Where each of `ours`'s lines starts.
  const starts = [0]
  for (const line of a) starts.push((starts.at(-1) as number) + line.length)

  const edits: TextEdit[] = []
  for (const theirHunk of theirHunks) {
    let shift = 0
    let conflict = false
    let duplicate = false
    for (const ourHunk of oursHunks) {
      // Apart only with an unchanged line between: changes that touch conflict, as in diff3.
      if (ourHunk.end < theirHunk.start) shift += ourHunk.lines.length - (ourHunk.end - ourHunk.start)
      else if (ourHunk.start > theirHunk.end) break
      else if (sameHunk(ourHunk, theirHunk)) duplicate = true
      else conflict = true
    }
    if (conflict) return undefined
    if (duplicate) continue
    const from = theirHunk.start + shift
    edits.push({
      start: starts[from] as number,
      end: starts[from + theirHunk.end - theirHunk.start] as number,
      text: theirHunk.lines.join(''),
    })
  }
  return edits
}
