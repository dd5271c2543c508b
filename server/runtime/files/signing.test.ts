import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { fileSignature, type SigningInput, signingError } from './signing'

const token = 'secret-token'
const now = 1_800_000_000

function input(query: Record<string, string>, extra: Partial<SigningInput> = {}): SigningInput {
  const params = new URLSearchParams(query)
  const raw = params.get('signature_expiration')
  return {
    operation: 'read',
    accessToken: token,
    headerToken: undefined,
    query: params,
    expiration: raw === null ? undefined : Number(raw),
    nowSeconds: now,
    ...extra,
  }
}

describe('fileSignature', () => {
  it('is v1_ + unpadded base64 SHA-256 of path:operation:username:token[:expiration]', () => {
    const digest = createHash('sha256').update('/home/user/a.txt:read:user:secret-token').digest('base64')
    expect(fileSignature('/home/user/a.txt', 'read', 'user', token)).toBe(`v1_${digest.replace(/=+$/, '')}`)
    const withExp = createHash('sha256').update('a.txt:write::secret-token:1700000000').digest('base64')
    expect(fileSignature('a.txt', 'write', '', token, 1_700_000_000)).toBe(`v1_${withExp.replace(/=+$/, '')}`)
    expect(fileSignature('x', 'read', '', token)).not.toContain('=')
  })
})

describe('signingError (envd validateSigning order)', () => {
  it('allows everything when the runtime has no token', () => {
    expect(signingError(input({}, { accessToken: undefined }))).toBeUndefined()
  })

  it('accepts a matching header and rejects a wrong one even with a valid signature', () => {
    expect(signingError(input({}, { headerToken: token }))).toBeUndefined()
    const signature = fileSignature('a', 'read', '', token)
    expect(signingError(input({ path: 'a', signature }, { headerToken: 'wrong' }))).toBe(
      'access token present in header but does not match',
    )
  })

  it('needs a signature without a header', () => {
    expect(signingError(input({ path: 'a' }))).toBe('missing signature query parameter')
  })

  it('checks the signature over the raw path, operation and username', () => {
    const signature = fileSignature('~/a b.txt', 'read', 'user', token)
    expect(signingError(input({ path: '~/a b.txt', username: 'user', signature }))).toBeUndefined()
    expect(signingError(input({ path: '~/a b.txt', username: 'root', signature }))).toBe('invalid signature')
    expect(
      signingError(input({ path: '~/a b.txt', username: 'user', signature }, { operation: 'write' })),
    ).toBe('invalid signature')
  })

  it('honours signature_expiration', () => {
    const future = now + 60
    const signature = fileSignature('a', 'write', '', token, future)
    const ok = input({ path: 'a', signature, signature_expiration: String(future) }, { operation: 'write' })
    expect(signingError(ok)).toBeUndefined()
    const past = now - 1
    const old = fileSignature('a', 'write', '', token, past)
    expect(
      signingError(
        input({ path: 'a', signature: old, signature_expiration: String(past) }, { operation: 'write' }),
      ),
    ).toBe('signature is already expired')
    // The expiration is part of what is signed.
    expect(
      signingError(
        input({ path: 'a', signature, signature_expiration: String(future + 1) }, { operation: 'write' }),
      ),
    ).toBe('invalid signature')
  })
})
