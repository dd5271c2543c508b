import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'

// The README is for users and short; the docs are plain Markdown whose every link stays inside
// the repository and lands on a file, and a heading, that exist.
const root = join(import.meta.dirname, '..')
const pages = [
  'README.md',
  'packages/embed/README.md',
  'e2e/README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
]

/** A page's lines outside fenced code blocks (where `#` is a shell comment, not a heading). */
function prose(markdown: string): string[] {
  let fenced = false
  return markdown.split('\n').map((line) => {
    if (/^\s*```/.test(line)) {
      fenced = !fenced
      return ''
    }
    return fenced ? '' : line
  })
}

/** The anchors a code host makes of a page's headings: lowercased, punctuation dropped, spaces to hyphens. */
function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>()
  const anchors = new Set<string>()
  for (const line of prose(markdown)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*$/.exec(line)?.[1]
    if (heading === undefined) continue
    const base = heading
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/ /g, '-')
    const count = seen.get(base) ?? 0
    seen.set(base, count + 1)
    anchors.add(count ? `${base}-${count}` : base)
  }
  return anchors
}

/** Every link and image target of a page, outside code. */
function linksOf(markdown: string): string[] {
  const text = prose(markdown)
    .join('\n')
    .replace(/`[^`\n]*`/g, '')
  return [...text.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1] as string)
}

describe('the README', () => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8')

  it('is at most 300 lines, for users', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(300)
    expect(readme).not.toMatch(/\bruns? on (a|another) (day|session)|\bdays?'s? (trace|runs?)\b/i)
  })

  it('has a quick start of at most 40 lines, with the two commands', () => {
    const start = readme.indexOf('## Quick start')
    const quickStart = readme.slice(start, readme.indexOf('\n## ', start + 1))
    expect(start).toBeGreaterThan(0)
    expect(quickStart.split('\n').length).toBeLessThanOrEqual(40)
    expect(quickStart).toMatch(/^npm start\b/m)
    expect(quickStart).toMatch(/^npm test\b/m)
  })
})

describe('the docs', () => {
  it.each(pages)('%s links only inside the repository, to files and headings that exist', (page) => {
    const markdown = readFileSync(join(root, page), 'utf8')
    const broken: string[] = []
    for (const link of linksOf(markdown)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(link)) {
        broken.push(`${link}: leaves the repository`)
        continue
      }
      const [path = '', anchor] = link.split('#')
      const target = path ? join(dirname(join(root, page)), decodeURIComponent(path)) : join(root, page)
      if (!relative(root, target) || relative(root, target).startsWith('..')) {
        broken.push(`${link}: leaves the repository`)
      } else if (!existsSync(target)) {
        broken.push(`${link}: no such file`)
      } else if (anchor !== undefined) {
        const anchors =
          statSync(target).isFile() && target.endsWith('.md')
            ? anchorsOf(readFileSync(target, 'utf8'))
            : undefined
        if (!anchors?.has(anchor)) broken.push(`${link}: no such heading`)
      }
    }
    expect(broken).toEqual([])
  })

  it('keeps the current figures in one table, with the command that prints each', () => {
    const performance = readFileSync(join(root, 'docs', 'performance.md'), 'utf8')
    const header = prose(performance).find((line) => line.startsWith('| Figure'))
    expect(header?.split('|').map((cell) => cell.trim())).toEqual(
      expect.arrayContaining(['Figure', 'Value', 'Peer in the same run', 'Command', 'Date', 'Machine']),
    )
  })

  it('makes the anchors a code host makes', () => {
    expect([
      ...anchorsOf(
        '## HTTPS and HTTP/2 (`--tls`)\n## Who may use the IDE: the link and its token\n## A\n## A',
      ),
    ]).toEqual(['https-and-http2---tls', 'who-may-use-the-ide-the-link-and-its-token', 'a', 'a-1'])
  })
})
