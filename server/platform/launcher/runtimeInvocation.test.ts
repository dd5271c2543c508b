import { describe, expect, it } from 'vitest'
import { parseRuntimeArgs } from '../../runtime/options'
import { runtimeFlags, runtimeStdin } from './runtimeInvocation'

const spec = { id: 'a', homeDir: '/h', accessToken: 's3cret', envVars: { A: '1', B: 'two words' } }

describe('runtime invocation', () => {
  it('keeps the token and env vars out of the flags, and the runtime reads them from stdin', async () => {
    const flags = runtimeFlags('user', '/home/user')
    expect(flags.join(' ')).not.toContain('s3cret')
    const lines = runtimeStdin(spec).split('\n')
    expect(lines.at(-1)).toBe('')
    const options = await parseRuntimeArgs(flags, {}, async () => lines.shift() ?? '')
    expect(options).toMatchObject({
      port: 0,
      host: '127.0.0.1',
      defaultUser: 'user',
      home: '/home/user',
      accessToken: 's3cret',
      envVars: { A: '1', B: 'two words' },
    })
  })

  it('refuses a token that is empty or spans lines', () => {
    expect(() => runtimeStdin({ ...spec, accessToken: '' })).toThrow()
    expect(() => runtimeStdin({ ...spec, accessToken: 'a\nb' })).toThrow()
  })
})

describe('the runtime options it relies on', () => {
  it('still takes the token as a value or from RUNTIME_ACCESS_TOKEN', async () => {
    expect(await parseRuntimeArgs(['--access-token', 'T'], {})).toMatchObject({ accessToken: 'T' })
    expect(await parseRuntimeArgs([], { RUNTIME_ACCESS_TOKEN: 'E' })).toMatchObject({ accessToken: 'E' })
  })

  it('takes env vars as a JSON object of strings and rejects anything else', async () => {
    expect(await parseRuntimeArgs(['--env-vars', '{"K":"v"}'], {})).toMatchObject({ envVars: { K: 'v' } })
    await expect(parseRuntimeArgs(['--env-vars', '[1]'], {})).rejects.toThrow('JSON object')
    await expect(parseRuntimeArgs(['--env-vars', '{"K":1}'], {})).rejects.toThrow("'K' must be a string")
  })

  it('fails clearly when stdin ends before the token', async () => {
    await expect(
      parseRuntimeArgs(['--access-token', '-'], {}, () => Promise.reject(new Error('stdin ended'))),
    ).rejects.toThrow('stdin ended')
    await expect(parseRuntimeArgs(['--access-token', '-'], {}, async () => '  ')).rejects.toThrow(
      'empty line',
    )
  })
})
