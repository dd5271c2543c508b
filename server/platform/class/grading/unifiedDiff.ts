// A unified diff (`diff -u`'s format) of two sets of files: a submission against the lab's
// starting files, for the teacher to read. The line diff is jsdiff's (Myers' algorithm, the one
// the editor's three-way merge uses too); the files, the headers and the bounds are ours.
import { structuredPatch } from 'diff'

/** Lines of context around each change, as `diff -u`. */
const context = 3
/** The most differing lines looked for: beyond it the file is shown as replaced whole. */
const maxEdits = 1000

/** `@@`'s range of one side, as diff -u writes it: an empty side names the line before it. */
const range = (start: number, count: number) =>
  count === 0 ? `${start - 1},0` : count === 1 ? `${start}` : `${start},${count}`

/** A whole-file replacement, for texts too different to diff line by line. */
function replacedWhole(before: string, after: string): string {
  const side = (text: string, mark: string) => {
    if (text === '') return { count: 0, lines: [] as string[] }
    const lines = text.split('\n')
    const missingEnd = lines.at(-1) !== ''
    if (!missingEnd) lines.pop()
    const marked = lines.map((line) => `${mark}${line}`)
    if (missingEnd) marked.push('\\ No newline at end of file')
    return { count: lines.length, lines: marked }
  }
  const a = side(before, '-')
  const b = side(after, '+')
  return `${[`@@ -${range(1, a.count)} +${range(1, b.count)} @@`, ...a.lines, ...b.lines].join('\n')}\n`
}

/**
 * The hunks of a unified diff between two texts (no `---`/`+++` lines), or '' when they are the
 * same. A file without a final newline is marked as `diff` marks it.
 */
export function diffHunks(before: string, after: string): string {
  if (before === after) return ''
  const patch = structuredPatch('a', 'b', before, after, undefined, undefined, {
    context,
    maxEditLength: maxEdits,
  })
  if (!patch) return replacedWhole(before, after)
  const out: string[] = []
  for (const hunk of patch.hunks) {
    out.push(
      `@@ -${range(hunk.oldStart, hunk.oldLines)} +${range(hunk.newStart, hunk.newLines)} @@`,
      ...hunk.lines,
    )
  }
  return out.length ? `${out.join('\n')}\n` : ''
}

/** A file of either side: its path and bytes. */
export interface DiffFile {
  path: string
  content: Uint8Array
}

/** The file's text, or undefined when it is not text (not UTF-8, or with a NUL in it). */
export function textOf(content: Uint8Array): string | undefined {
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(content)
    return text.includes('\u0000') ? undefined : text
  } catch {
    return undefined
  }
}

/** Files larger than this are said to differ, not compared line by line (the search grows with their length). */
export const maxDiffedBytes = 256 * 1024

const sameBytes = (a: Uint8Array, b: Uint8Array) =>
  a.byteLength === b.byteLength && a.every((byte, i) => byte === b[i])

/**
 * A unified diff of two sets of files by path (`--- a/path`, `+++ b/path`, `/dev/null` for a file
 * on one side only), paths in order; files that are not text, or larger than `maxDiffedBytes`,
 * say only that they differ.
 */
export function unifiedDiff(before: readonly DiffFile[], after: readonly DiffFile[]): string {
  const old = new Map(before.map((f) => [f.path, f.content]))
  const now = new Map(after.map((f) => [f.path, f.content]))
  const paths = [...new Set([...old.keys(), ...now.keys()])].sort()
  let out = ''
  for (const path of paths) {
    const a = old.get(path)
    const b = now.get(path)
    if (a && b && sameBytes(a, b)) continue
    const aName = a ? `a/${path}` : '/dev/null'
    const bName = b ? `b/${path}` : '/dev/null'
    if (Math.max(a?.byteLength ?? 0, b?.byteLength ?? 0) > maxDiffedBytes) {
      out += `Files ${aName} and ${bName} differ (too large to show)\n`
      continue
    }
    const aText = a ? textOf(a) : ''
    const bText = b ? textOf(b) : ''
    if (aText === undefined || bText === undefined) {
      out += `Binary files ${aName} and ${bName} differ\n`
      continue
    }
    out += `--- ${aName}\n+++ ${bName}\n${diffHunks(aText, bText)}`
  }
  return out
}
