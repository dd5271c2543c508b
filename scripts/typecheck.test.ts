import { spawnSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '..')

/** What `tsc -p project` says with `source` in a file of `folder` for the while. */
function typecheckWith(project: string, folder: string, source: string): { ok: boolean; output: string } {
  const file = join(folder, `typecheckProbe${randomUUID().slice(0, 8)}.ts`)
  writeFileSync(join(root, file), source)
  try {
    const run = spawnSync(join(root, 'node_modules', '.bin', 'tsc'), ['-p', project], {
      cwd: root,
      encoding: 'utf8',
    })
    const output = run.stdout + run.stderr
    return {
      ok: run.status === 0 && !output.includes(file),
      output: output
        .split('\n')
        .filter((l) => l.includes(file))
        .join('\n'),
    }
  } finally {
    rmSync(join(root, file), { force: true })
  }
}

describe('the compiler guards each side’s environment', () => {
  it('has no DOM in the sandbox runtime', () => {
    const { ok, output } = typecheckWith(
      'server/tsconfig.json',
      'server/runtime',
      'export const t = document.title\n',
    )
    expect(ok).toBe(false)
    expect(output).toContain("Cannot find name 'document'")
  })

  it('has no Node in the browser’s domain layer', () => {
    const { ok, output } = typecheckWith(
      'src/tsconfig.json',
      'src/sandbox',
      'export const e = process.env.HOME\n',
    )
    expect(ok).toBe(false)
    expect(output).toContain("Cannot find name 'process'")
  })

  it('has neither in the contract both sides compile', () => {
    for (const source of ['export const t = document.title\n', "export const b = Buffer.from('x')\n"]) {
      const { ok } = typecheckWith('src/tsconfig.shared.json', 'src/contract', source)
      expect(ok).toBe(false)
    }
  })

  it('accepts the language itself', () => {
    const source = 'export const n: number = Math.max(...[1, 2].map((x) => x * 2))\n'
    expect(typecheckWith('src/tsconfig.shared.json', 'src/contract', source).ok).toBe(true)
  })
})
