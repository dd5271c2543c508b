// The platform's command line: defaults, the flags users pass, and readable refusals.
import { describe, expect, it } from 'vitest'
import { type PlatformConfig, parsePlatformConfig } from './config'

const parse = (argv: string[], env: NodeJS.ProcessEnv = {}) =>
  parsePlatformConfig(argv, env) as PlatformConfig

describe('parsePlatformConfig', () => {
  it('listens on loopback at 8787 with isolation, the default sandbox and the HTTP tunnel by default', () => {
    const config = parse([])
    expect(config).toMatchObject({
      port: 8787,
      host: '127.0.0.1',
      isolation: 'auto',
      defaultSandbox: true,
      tls: false,
    })
    expect(config.noHttpTunnel).toBeUndefined()
  })

  it('takes the flags a user passes', () => {
    const config = parse([
      '--port',
      '9000',
      '--tls',
      '--no-http-tunnel',
      '--no-isolation',
      '--sandbox-cpus',
      '0.5',
    ])
    expect(config).toMatchObject({ port: 9000, tls: true, noHttpTunnel: true, isolation: 'none' })
    expect(config.sandboxLimits?.cpus).toBe(0.5)
  })

  it('refuses bad values and unknown flags with a message that names them', () => {
    expect(() => parse(['--port', '70000'])).toThrow(/--port must be 0..65535, not '70000'/)
    expect(() => parse(['--sandbox-cpus', 'lots'])).toThrow(/--sandbox-cpus must be a number/)
    expect(() => parse(['--embed-origin', 'https://docs.example.com/path'])).toThrow(/takes an origin/)
    expect(() => parse(['--http-tunnel-off'])).toThrow(/Unknown option '--http-tunnel-off'/)
  })

  it('serves a class on a --domain, with the school’s certificate when given', () => {
    const config = parse([
      '--host',
      '0.0.0.0',
      '--domain',
      'Class.Example.org.',
      '--tls-cert',
      'c.pem',
      '--tls-key',
      'k.pem',
    ])
    expect(config).toMatchObject({ domain: 'class.example.org', tls: true })
    expect(config.tlsFiles?.cert).toMatch(/\/c\.pem$/)
    for (const bad of [
      '192.168.1.5',
      'localhost',
      'a.localhost',
      'nodots',
      'bad-.example',
      'a b.example',
      '*.example.org',
    ])
      expect(() => parse(['--domain', bad]), bad).toThrow(/--domain takes a DNS name/)
    expect(() => parse(['--tls-cert', 'c.pem'])).toThrow('--tls-cert and --tls-key go together')
  })

  it('answers --help with help, not a configuration', () => {
    expect(parsePlatformConfig(['--help'], {})).toBe('help')
  })
})
