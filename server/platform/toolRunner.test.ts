import { describe, expect, it } from 'vitest'
import { runTool } from './mounts'
import { runOnHost } from './toolRunner'

describe('the tool runner', () => {
  it('runs a tool and answers its exit code and output, byte for byte', async () => {
    expect(await runOnHost('sh', ['-c', 'printf "out ü"; printf err >&2; exit 3'])).toEqual({
      code: 3,
      signal: null,
      stdout: 'out ü',
      stderr: 'err',
    })
  })

  it('passes arguments as they are, spaces, quotes and newlines included (no shell between)', async () => {
    const odd = ['a b', "it's", '"q"', 'new\nline', '$(id)', '']
    const { stdout } = await runOnHost('printf', ['%s|', ...odd])
    expect(stdout).toBe(`${odd.join('|')}|`)
  })

  it('says which signal killed a tool, and runTool turns a failure into an error with its stderr', async () => {
    expect(await runOnHost('sh', ['-c', 'kill -9 $$'])).toMatchObject({ code: null, signal: 9 })
    await expect(runTool('sh', ['-c', 'echo no such mount >&2; exit 32'])).rejects.toMatchObject({
      message: 'sh -c echo no such mount >&2; exit 32 failed (exit code 32): no such mount',
      stderr: 'no such mount\n',
    })
  })

  it('refuses a tool that does not exist, and goes on serving', async () => {
    await expect(runOnHost('/no/such/tool', [])).rejects.toThrow(/No such file/)
    expect((await runOnHost('true', [])).code).toBe(0)
  })

  it('runs tools at once: a slow one holds up no other', async () => {
    const slow = runOnHost('sleep', ['1'])
    const started = Date.now()
    await runOnHost('true', [])
    expect(Date.now() - started).toBeLessThan(900)
    expect((await slow).code).toBe(0)
  })
})
