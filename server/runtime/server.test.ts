import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestRuntime, type TestRuntime } from './testing/runtimeFixture'
import { postStream, postUnary } from './testing/wire'

describe('runtime HTTP layer', () => {
  let rt: TestRuntime
  beforeAll(async () => {
    rt = await startTestRuntime()
  })
  afterAll(() => rt.close())

  it('answers /health with 204 and no body, without a token', async () => {
    const res = await fetch(`${rt.url}/health`)
    expect(res.status).toBe(204)
    expect(res.headers.get('cache-control')).toBe('no-store')
    expect(await res.text()).toBe('')
  })

  it('rejects a unary RPC without the token with envd’s own 401 body', async () => {
    const res = await postUnary(rt.url, '/process.Process/List', {})
    expect(res.status).toBe(401)
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(res.json).toEqual({
      code: 401,
      message: 'unauthorized access, please provide a valid access token or method signing if supported',
    })
  })

  it('rejects a wrong token and a streaming RPC with 401 too', async () => {
    expect((await postUnary(rt.url, '/process.Process/List', {}, { 'X-Access-Token': 'nope' })).status).toBe(
      401,
    )
    const stream = await postStream(rt.url, '/process.Process/Start', { process: { cmd: 'true' } })
    expect(stream.status).toBe(401)
  })

  it('answers a CORS preflight before auth, echoing method and headers', async () => {
    const res = await fetch(`${rt.url}/process.Process/Start`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://ide.example',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'x-access-token,connect-protocol-version,authorization',
      },
    })
    expect(res.status).toBe(204)
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    expect(res.headers.get('access-control-allow-methods')).toBe('POST')
    expect(res.headers.get('access-control-allow-headers')).toBe(
      'x-access-token,connect-protocol-version,authorization',
    )
    expect(res.headers.get('access-control-max-age')).toBe('7200')
    expect(res.headers.get('access-control-allow-credentials')).toBeNull()
  })

  it('puts CORS headers on errors too, so a browser can read them', async () => {
    const res = await fetch(`${rt.url}/process.Process/List`, {
      method: 'POST',
      headers: { Origin: 'http://ide.example', 'Content-Type': 'application/json' },
      body: '{}',
    })
    expect(res.status).toBe(401)
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    expect(res.headers.get('access-control-expose-headers')).toContain('Grpc-Status')
    expect(res.headers.get('vary')).toBe('Origin')
  })

  it('answers an unknown path with a plain 404', async () => {
    const res = await fetch(`${rt.url}/nope`, { headers: rt.auth })
    expect(res.status).toBe(404)
    expect(await res.text()).toBe('404 page not found\n')
  })
})
