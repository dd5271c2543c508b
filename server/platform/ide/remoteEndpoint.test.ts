// Where an E2B remote's API and sandboxes are: defaults, loopback stacks, explicit domains.
import { describe, expect, it } from 'vitest'
import { remoteEndpoint } from './remoteEndpoint'

describe('remoteEndpoint', () => {
  it('defaults to E2B itself, whose sandboxes live under e2b.app', () => {
    expect(remoteEndpoint()).toEqual({ apiUrl: 'https://api.e2b.app', domain: 'e2b.app' })
  })

  it('takes the domain from the API host without its api. label, keeping a port and a path prefix', () => {
    expect(remoteEndpoint('https://api.example.com:8443/e2b/')).toEqual({
      apiUrl: 'https://api.example.com:8443/e2b',
      domain: 'example.com:8443',
    })
    expect(remoteEndpoint('https://E2B.Example.com')).toEqual({
      apiUrl: 'https://e2b.example.com',
      domain: 'e2b.example.com',
    })
  })

  it('puts the sandboxes of a stack on loopback under localhost with its port', () => {
    expect(remoteEndpoint('http://127.0.0.1:8787')).toEqual({
      apiUrl: 'http://127.0.0.1:8787',
      domain: 'localhost:8787',
    })
    expect(remoteEndpoint('http://localhost').domain).toBe('localhost')
    expect(remoteEndpoint('http://[::1]:9000').domain).toBe('localhost:9000')
  })

  it('uses the domain it is given', () => {
    expect(remoteEndpoint('https://api.e2b.app', 'Sandboxes.Example.org').domain).toBe(
      'sandboxes.example.org',
    )
  })

  it('refuses what is not a plain http(s) URL, and http beyond loopback', () => {
    expect(() => remoteEndpoint('api.e2b.app')).toThrow("apiUrl is not a URL: 'api.e2b.app'")
    expect(() => remoteEndpoint('file:///etc/passwd')).toThrow('http or https')
    expect(() => remoteEndpoint('http://api.example.com')).toThrow('must use https')
  })
})
