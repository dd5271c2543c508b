import { describe, expect, it } from 'vitest'
import { type CodeFile, similarPairs } from './similarPairs'

const file = (path: string, text: string): CodeFile => ({ path, content: new TextEncoder().encode(text) })

/** The lab's starting code: a stub to fill in, and a helper every student was given. */
const starting = [
  file(
    'grades.py',
    `"""Statistics of a class's grades."""


def read_grades(path):
    """One grade a line; blank lines are skipped."""
    with open(path) as f:
        return [float(line) for line in f if line.strip()]


def summary(grades):
    """The mean, median and spread of the grades."""
    raise NotImplementedError
`,
  ),
]

/** Ada's work: three functions and the summary. */
const ada = `${starting[0] ? new TextDecoder().decode(starting[0].content).replace('    raise NotImplementedError\n', '') : ''}    ordered = sorted(grades)
    return {"mean": mean(ordered), "median": median(ordered), "spread": spread(ordered)}


def mean(values):
    total = 0
    for value in values:
        total += value
    return total / len(values)


def median(values):
    middle = len(values) // 2
    if len(values) % 2 == 1:
        return values[middle]
    return (values[middle - 1] + values[middle]) / 2


def spread(values):
    centre = mean(values)
    squares = [(value - centre) ** 2 for value in values]
    return (sum(squares) / (len(values) - 1)) ** 0.5
`

/** Ada's work with every name changed, comments added, and other numbers in a message. */
const renamed = ada
  .replaceAll('ordered', 'sorted_marks')
  .replaceAll('values', 'xs')
  .replaceAll('value', 'x')
  .replaceAll('total', 'acc')
  .replaceAll('middle', 'mid')
  .replaceAll('centre', 'mu')
  .replaceAll('squares', 'sq')
  .replace('def mean(xs):\n', 'def mean(xs):\n    # add them all up, then divide\n')

/** Ada's functions in another order. */
function reordered(): string {
  const parts = ada.split('\n\n\n')
  const [head, read, summary, mean, median, spread] = parts
  return [head, spread, read, median, summary, mean].join('\n\n\n')
}

/** Someone else's own work: another way to the same answers. */
const other = `${new TextDecoder().decode(starting[0]?.content ?? new Uint8Array()).replace('    raise NotImplementedError\n', '')}    n = len(grades)
    if n == 0:
        raise ValueError("no grades")
    avg = sum(grades) / n
    s = sorted(grades)
    med = s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2
    var = sum((g - avg) * (g - avg) for g in grades) / max(1, n - 1)
    import math
    return dict(mean=avg, median=med, spread=math.sqrt(var))
`

const startingText = new TextDecoder().decode(starting[0]?.content)
const submission = (key: string, text: string) => ({ key, files: [file('grades.py', text)] })

describe('similarPairs', () => {
  it('finds a copy whose names were all changed, and says which lines match', () => {
    const { pairs } = similarPairs([submission('ada', ada), submission('ben', renamed)], starting)
    expect(pairs).toHaveLength(1)
    const [pair] = pairs
    expect(pair).toMatchObject({ a: 'ada', b: 'ben' })
    expect(pair?.score).toBeGreaterThan(0.9)
    const adaLines = ada.split('\n')
    const meanLine = adaLines.indexOf('def mean(values):') + 1
    // A region covers Ada's mean, and Ben's mean (a line further: his comment).
    expect(
      pair?.regions.some(
        (r) => r.a.from <= meanLine + 1 && r.a.to >= meanLine + 3 && r.b.path === 'grades.py',
      ),
    ).toBe(true)
  })

  it('finds a copy whose functions were put in another order', () => {
    const { pairs } = similarPairs([submission('ada', ada), submission('cy', reordered())], starting)
    expect(pairs[0]?.score).toBeGreaterThan(0.8)
    // Regions of Ada's file map to other places of Cy's: more than one of them.
    expect(pairs[0]?.regions.length).toBeGreaterThan(1)
  })

  it('does not match on the starting code alone', () => {
    const { pairs, ignored } = similarPairs(
      [submission('ada', startingText), submission('ben', startingText)],
      starting,
    )
    expect(pairs).toEqual([])
    expect(ignored.starting).toBeGreaterThan(0)
    // Without the starting files, the same two would be a perfect match.
    expect(
      similarPairs([submission('ada', startingText), submission('ben', startingText)], []).pairs[0]?.score,
    ).toBe(1)
  })

  it('scores unrelated work low, and ranks the copy first', () => {
    const { pairs } = similarPairs(
      [submission('ada', ada), submission('dan', other), submission('ben', renamed)],
      starting,
    )
    expect(pairs[0]).toMatchObject({ a: 'ada', b: 'ben' })
    const unrelated = (x: string, y: string) =>
      pairs.find((p) => [p.a, p.b].sort().join() === [x, y].sort().join())?.score ?? 0
    expect(unrelated('ada', 'dan')).toBeLessThan(0.2)
    expect(unrelated('ben', 'dan')).toBeLessThan(0.2)
  })

  it('leaves out what most of the class shares (a helper shown in the lecture), not what two share', () => {
    const helper = `

def clamp(x, low, high):
    if x < low:
        return low
    if x > high:
        return high
    return x
`
    // Five students' own code: five ways to do five things.
    const owns = [
      'def evens(xs):\n    out = []\n    for x in xs:\n        if x % 2 == 0:\n            out.append(x)\n    return out\n',
      'class Stack:\n    def __init__(self):\n        self.items = []\n    def push(self, item):\n        self.items.append(item)\n',
      'import sys\nwith open(sys.argv[1]) as f:\n    words = f.read().split()\nprint(len(words), "words")\n',
      'def fib(n):\n    a, b = 0, 1\n    while n > 0:\n        a, b = b, a + b\n        n -= 1\n    return a\n',
      'total = 0\nfor i in range(10):\n    try:\n        total += int(input())\n    except ValueError:\n        break\n',
    ]
    const own = (n: number) => owns[n] ?? ''
    const everyone = ['ann', 'bo', 'cat', 'dee', 'eli'].map((key, n) => submission(key, `${own(n)}${helper}`))
    const { pairs, ignored } = similarPairs(everyone, [])
    expect(ignored.common).toBeGreaterThan(0)
    // Only their own code is left, and theirs are not alike enough.
    expect(pairs.every((p) => p.score < 0.5)).toBe(true)
    // Two sharing it of five is not "most": it is kept.
    const two = similarPairs(
      [
        submission('ann', own(0) + helper),
        submission('bo', own(1) + helper),
        submission('cat', own(2)),
        submission('dee', own(3)),
        submission('eli', own(4)),
      ],
      [],
    )
    expect(two.ignored.common).toBe(0)
    expect(two.pairs[0]).toMatchObject({ a: 'ann', b: 'bo' })
  })

  it('takes empty, binary and huge files without failing, and says which it skipped', () => {
    const huge = file('data.csv', 'x,'.repeat(600_000))
    const binary: CodeFile = { path: 'photo.png', content: new Uint8Array([137, 80, 78, 71, 0, 1, 2, 255]) }
    const result = similarPairs(
      [
        { key: 'ada', files: [file('grades.py', ada), binary, huge, file('empty.py', '')] },
        { key: 'ben', files: [file('grades.py', renamed), binary] },
        { key: 'cy', files: [] },
      ],
      starting,
    )
    expect(result.skipped).toEqual([
      { key: 'ada', path: 'photo.png', why: 'binary' },
      { key: 'ada', path: 'data.csv', why: 'too large' },
      { key: 'ben', path: 'photo.png', why: 'binary' },
    ])
    expect(result.pairs.map((p) => [p.a, p.b])).toEqual([['ada', 'ben']])
    expect(similarPairs([], starting).pairs).toEqual([])
  })

  it('compares a large class of long submissions in a few seconds at most', () => {
    const long = (seed: number) =>
      Array.from(
        { length: 3000 },
        (_, i) => `v${i} = f${(i * seed) % 97}(v${i - 1}, ${i % 13}) + ${(i * 31 * seed) % 7}`,
      ).join('\n')
    const students = Array.from({ length: 30 }, (_, i) => submission(`s${i}`, long(i + 2)))
    const started = performance.now()
    const { pairs } = similarPairs(students, [], { limit: 10 })
    expect(performance.now() - started).toBeLessThan(5000)
    expect(pairs.length).toBeLessThanOrEqual(10)
  })
})
