/**
 * Names in natural order ("file2" before "file10", case aside), as `Intl.Collator` with
 * `numeric: true, sensitivity: 'base'` orders them, but fast. The collator is the truth; it is
 * also slow (a folder of 100,000 entries spends a third of a second in it), so names made only of
 * ASCII letters, digits, space, `_`, `-` and `.` (nearly every file name) are compared here
 * instead, by the collator's own rules for them: letters without case, digit runs by value,
 * space < `_` < `-` < `.` < digits < letters. Where the page's locale orders those differently
 * (Lithuanian puts y beside i), a check at load finds out and every name goes to the collator.
 */
const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' })

const plain = /^[A-Za-z0-9 _.-]*$/

const isDigit = (c: number) => c >= 48 && c <= 57

/** Space, `_`, `-`, `.`, then digits, then letters (lower-cased before). */
function rank(c: number): number {
  if (c === 32) return 0
  if (c === 95) return 1
  if (c === 45) return 2
  if (c === 46) return 3
  return isDigit(c) ? 4 : 5
}

/** The end of the run of digits starting at `i`. */
function digitsEnd(s: string, i: number): number {
  while (i < s.length && isDigit(s.charCodeAt(i))) i++
  return i
}

/** Compares two plain names as the collator does; 0 where it sees them equal. */
export function comparePlain(a: string, b: string): number {
  let i = 0
  let j = 0
  while (i < a.length && j < b.length) {
    let ca = a.charCodeAt(i)
    let cb = b.charCodeAt(j)
    if (isDigit(ca) && isDigit(cb)) {
      // Digit runs by value: leading zeros aside, the longer run is the larger number.
      let si = i
      while (a.charCodeAt(si) === 48) si++
      let sj = j
      while (b.charCodeAt(sj) === 48) sj++
      const ei = digitsEnd(a, si)
      const ej = digitsEnd(b, sj)
      if (ei - si !== ej - sj) return ei - si - (ej - sj)
      for (let k = 0; k < ei - si; k++) {
        const d = a.charCodeAt(si + k) - b.charCodeAt(sj + k)
        if (d !== 0) return d
      }
      i = ei
      j = ej
      continue
    }
    if (ca >= 65 && ca <= 90) ca += 32
    if (cb >= 65 && cb <= 90) cb += 32
    if (ca !== cb) return rank(ca) - rank(cb) || ca - cb
    i++
    j++
  }
  return a.length - i - (b.length - j)
}

/** Whether this page's collator orders plain names as `comparePlain` does (checked once). */
const plainAgrees = (() => {
  const probe = [
    '',
    ' ',
    '_',
    '-',
    '.',
    '0',
    '1',
    '9',
    '10',
    '010',
    ...'abcdefghijklmnopqrstuvwxyz',
    'A',
    'Z',
  ]
  for (const a of probe)
    for (const b of probe)
      if (Math.sign(comparePlain(a, b)) !== Math.sign(collator.compare(a, b))) return false
  return true
})()

const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

/** Natural order of two names, ties (case, leading zeros) broken by their code units. */
export function compareNames(a: string, b: string): number {
  const order = plainAgrees && plain.test(a) && plain.test(b) ? comparePlain(a, b) : collator.compare(a, b)
  return order || byCodeUnits(a, b)
}

/**
 * Named items (a folder's entries) in natural order of their names, those `isFirst` picks
 * (folders) before the rest. Where every name is plain, as in nearly every folder, the comparison
 * skips the per-name check as well.
 */
export function sortNatural<T extends { readonly name: string }>(
  items: Iterable<T>,
  isFirst: (item: T) => boolean,
): T[] {
  const first: T[] = []
  const rest: T[] = []
  let allPlain = plainAgrees
  for (const item of items) {
    ;(isFirst(item) ? first : rest).push(item)
    if (allPlain && !plain.test(item.name)) allPlain = false
  }
  const compare = allPlain
    ? (a: T, b: T) => comparePlain(a.name, b.name) || byCodeUnits(a.name, b.name)
    : (a: T, b: T) => compareNames(a.name, b.name)
  return first.sort(compare).concat(rest.sort(compare))
}
