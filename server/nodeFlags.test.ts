import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { nodeFlags } from './nodeFlags'

describe('nodeFlags', () => {
  it("are the flags package.json's start, bench and runtime scripts give Node", () => {
    const { scripts } = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8')) as {
      scripts: Record<string, string>
    }
    for (const name of ['start', 'bench', 'runtime']) {
      expect(scripts[name], name).toContain(`tsx ${nodeFlags.join(' ')} `)
    }
  })
})
