// Which lines of a buffer differ from another version of it (HEAD's), as the gutter marks them:
// lines added, lines changed, and places where lines were removed. Myers' diff over the lines,
// with the common start and end taken off first (an edit touches a few lines of a long file).

/** A run of the buffer's lines (from 1, inclusive) that differs from the original. */
export interface LineChange {
  /**
   * 'added': lines with no counterpart in the original; 'changed': lines that replace some;
   * 'removed': original lines are gone after `startLine` (0: before the first line), and
   * `endLine` equals `startLine`.
   */
  kind: 'added' | 'changed' | 'removed'
  startLine: number
  endLine: number
}

/** Lines as the editor counts them: "a\n" is two lines, the second empty. */
const splitLines = (text: string) => text.split(/\r\n|\r|\n/)

/** Above about this many steps of work the middle counts as one change (a rewrite, not edits). */
const maxWork = 20_000_000

/** The runs of `modified`'s lines that differ from `original`, in order. */
export function lineChanges(original: string, modified: string): LineChange[] {
  const a = splitLines(original)
  const b = splitLines(modified)
  let start = 0
  while (start < a.length && start < b.length && a[start] === b[start]) start++
  let endA = a.length
  let endB = b.length
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--
    endB--
  }
  if (start === endA && start === endB) return []
  // Lines as numbers, so the diff compares integers.
  const ids = new Map<string, number>()
  const intern = (lines: string[], from: number, to: number) => {
    const out = new Int32Array(to - from)
    for (let i = from; i < to; i++) {
      const line = lines[i] as string
      let id = ids.get(line)
      if (id === undefined) {
        id = ids.size
        ids.set(line, id)
      }
      out[i - from] = id
    }
    return out
  }
  const x = intern(a, start, endA)
  const y = intern(b, start, endB)
  const edits = diff(x, y) ?? wholeMiddle(x.length, y.length)
  return hunks(edits, x.length, y.length).map(([, countA, fromB, countB]) => {
    const line = start + fromB + 1
    if (countA === 0) return { kind: 'added', startLine: line, endLine: line + countB - 1 }
    if (countB === 0) return { kind: 'removed', startLine: line - 1, endLine: line - 1 }
    return { kind: 'changed', startLine: line, endLine: line + countB - 1 }
  })
}

/** Which lines of each side are not matched: deleted from the first, inserted in the second. */
interface Edits {
  deleted: Uint8Array
  inserted: Uint8Array
}

function wholeMiddle(n: number, m: number): Edits {
  return { deleted: new Uint8Array(n).fill(1), inserted: new Uint8Array(m).fill(1) }
}

/** Myers' shortest edit script; undefined when it would take more than `maxWork`. */
function diff(a: Int32Array, b: Int32Array): Edits | undefined {
  const n = a.length
  const m = b.length
  const max = n + m
  const maxD = Math.min(max, Math.max(64, Math.floor(maxWork / Math.max(1, max))))
  const offset = max + 1
  const v = new Int32Array(2 * max + 3)
  const trace: Int32Array[] = []
  for (let d = 0; d <= maxD; d++) {
    trace.push(v.slice(offset - d - 1, offset + d + 2))
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && (v[offset + k - 1] as number) < (v[offset + k + 1] as number))
          ? (v[offset + k + 1] as number)
          : (v[offset + k - 1] as number) + 1
      let y = x - k
      while (x < n && y < m && a[x] === b[y]) {
        x++
        y++
      }
      v[offset + k] = x
      if (x >= n && y >= m) return backtrack(trace, n, m, d)
    }
  }
  return undefined
}

/** Walks the saved frontiers back from the end, marking each step's deletion or insertion. */
function backtrack(trace: Int32Array[], n: number, m: number, steps: number): Edits {
  const deleted = new Uint8Array(n)
  const inserted = new Uint8Array(m)
  let x = n
  let y = m
  for (let d = steps; d > 0; d--) {
    // The frontier before step d, saved from index -d-1: k is at k + d + 1.
    const before = trace[d] as Int32Array
    const at = (k: number) => before[k + d + 1] as number
    const k = x - y
    const down = k === -d || (k !== d && at(k - 1) < at(k + 1))
    const prevK = down ? k + 1 : k - 1
    const prevX = at(prevK)
    const prevY = prevX - prevK
    if (down) inserted[prevY] = 1
    else deleted[prevX] = 1
    x = prevX
    y = prevY
  }
  return { deleted, inserted }
}

/** Runs of unmatched lines as [start in a, count in a, start in b, count in b]. */
function hunks({ deleted, inserted }: Edits, n: number, m: number): [number, number, number, number][] {
  const out: [number, number, number, number][] = []
  let i = 0
  let j = 0
  while (i < n || j < m) {
    if (i < n && j < m && !deleted[i] && !inserted[j]) {
      i++
      j++
      continue
    }
    const fromA = i
    const fromB = j
    while ((i < n && deleted[i]) || (j < m && inserted[j])) {
      while (i < n && deleted[i]) i++
      while (j < m && inserted[j]) j++
    }
    out.push([fromA, i - fromA, fromB, j - fromB])
  }
  return out
}
