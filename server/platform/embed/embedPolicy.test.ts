import { describe, expect, it } from 'vitest'
import { parsePlatformConfig } from '../../config'
import { embedPolicy, frameAncestors } from './embedPolicy'

const demo = 'http://embed-demo.localhost:8787'

describe('embed policy', () => {
  it('allows the demo page, the configured origins and the trusted ones; trusts only those', () => {
    const policy = embedPolicy(
      { embedOrigins: ['https://docs.example.com'], trustedOrigins: ['https://lab.example.edu'] },
      demo,
    )
    expect(policy).toEqual({
      allowedOrigins: [demo, 'https://docs.example.com', 'https://lab.example.edu'],
      trustedOrigins: ['https://lab.example.edu'],
    })
  })

  it('lets only allowed origins frame /embed, and only the IDE itself frame other pages', () => {
    const policy = embedPolicy({ embedOrigins: ['https://docs.example.com'] }, demo)
    expect(frameAncestors('/embed', policy)).toBe(`frame-ancestors 'self' ${demo} https://docs.example.com`)
    expect(frameAncestors('/', policy)).toBe("frame-ancestors 'self'")
    expect(frameAncestors('/sandbox/abc', policy)).toBe("frame-ancestors 'self'")
  })

  it('reads origins from flags or the environment and refuses anything that is not exactly an origin', () => {
    expect(
      parsePlatformConfig(
        ['--embed-origin', 'https://a.example', '--embed-origin', 'http://localhost:3000'],
        {},
      ),
    ).toMatchObject({ embedOrigins: ['https://a.example', 'http://localhost:3000'] })
    expect(
      parsePlatformConfig([], { SANDBOX_TRUSTED_ORIGINS: 'https://a.example, https://b.example' }),
    ).toMatchObject({
      trustedOrigins: ['https://a.example', 'https://b.example'],
    })
    for (const bad of [
      'https://a.example/',
      'https://a.example/docs',
      '*',
      'a.example',
      'javascript:alert(1)',
    ])
      expect(() => parsePlatformConfig(['--embed-origin', bad], {})).toThrow(/takes an origin/)
  })
})
