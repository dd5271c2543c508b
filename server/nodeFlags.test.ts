import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { nodeFlags, runtimeNodeFlags } from './nodeFlags'

describe('nodeFlags', () => {
  it("are the flags package.json's start, bench and runtime scripts give Node", () => {
    const { scripts } = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8')) as {
      scripts: Record<string, string>
    }
    expect(scripts.bench).toContain(`tsx ${nodeFlags.join(' ')} `)
    // A runtime alone runs as the launcher runs it in a sandbox.
    expect(scripts.runtime).toContain(`tsx ${runtimeNodeFlags.join(' ')} `)
    // The stack is Node itself, with tsx as a loader: tsx's own command would stand between it
    // and a Ctrl-C, passing the signal on and killing the stack if it is slow to answer (60 ms).
    expect(scripts.start).toContain(`exec node ${nodeFlags.join(' ')} --import tsx server/cli.ts`)
  })
})
