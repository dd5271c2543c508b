import { describe, expect, it } from 'vitest'
import { compareNames, comparePlain, sortNatural } from './naturalOrder'

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' })

/** Names as the items sortNatural sorts. */
const named = (names: string[]) => names.map((name) => ({ name }))

/** A seeded generator, so a failure replays. */
function random(seed: number) {
  let s = seed
  return () => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0
    return s / 2 ** 32
  }
}

describe('natural order', () => {
  it('orders plain names exactly as the collator does (200,000 random pairs)', () => {
    const next = random(46)
    const alphabet = 'aAbByYzZ0019 _.-'
    const name = () => {
      let s = ''
      const length = Math.floor(next() * 9)
      for (let k = 0; k < length; k++) s += alphabet[Math.floor(next() * alphabet.length)]
      return s
    }
    const disagreements: string[] = []
    for (let t = 0; t < 200_000; t++) {
      const a = name()
      const b = name()
      if (Math.sign(comparePlain(a, b)) !== Math.sign(collator.compare(a, b))) disagreements.push(`${a}|${b}`)
    }
    expect(disagreements.slice(0, 5)).toEqual([])
  })

  it('sorts a folder of plain names as the collator would', () => {
    const next = random(7)
    const list = Array.from(
      { length: 5_000 },
      () => `f${Math.floor(next() * 100_000)}_${next() < 0.5 ? 'A' : 'a'}.txt`,
    )
    expect(sortNatural(named(list), () => false).map((item) => item.name)).toEqual(
      [...list].sort((a, b) => collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0)),
    )
  })

  it('puts file2 before file10, ignores case, and never calls two different names equal', () => {
    const names = ['file10', 'File2', 'file2', 'é.txt', 'a_b', 'a-b', 'a.b', 'A1', 'a01', '']
    expect([...names].sort(compareNames)).toEqual(
      [...names].sort((a, b) => collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0)),
    )
    expect(compareNames('a1', 'a01')).not.toBe(0)
    expect(sortNatural(named(names), (item) => item.name.startsWith('a')).map((item) => item.name)).toEqual([
      ...[...names].filter((n) => n.startsWith('a')).sort(compareNames),
      ...[...names].filter((n) => !n.startsWith('a')).sort(compareNames),
    ])
  })
})
