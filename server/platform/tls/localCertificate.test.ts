import { X509Certificate } from 'node:crypto'
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { parsePlatformConfig } from '../../config'
import { certificateFromFiles, localCertificate } from './localCertificate'

const dirs: string[] = []
const dataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'tls-cert-'))
  dirs.push(dir)
  return dir
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

describe('localCertificate', () => {
  it('makes a self-signed certificate for localhost, 127.0.0.1 and *.localhost, key readable only by us', () => {
    const dir = dataDir()
    const made = localCertificate(dir)
    expect(made.generated).toBe(true)
    const x509 = new X509Certificate(made.cert)
    expect(x509.checkHost('localhost')).toBe('localhost')
    expect(x509.checkIP('127.0.0.1')).toBe('127.0.0.1')
    expect(x509.subjectAltName).toContain('DNS:*.localhost')
    expect(x509.verify(x509.publicKey)).toBe(true) // self-signed
    expect(Date.parse(x509.validTo) - Date.now()).toBeGreaterThan(300 * 24 * 3600 * 1000)
    expect(statSync(join(dir, 'tls', 'key.pem')).mode & 0o777).toBe(0o600)
    expect(statSync(join(dir, 'tls')).mode & 0o777).toBe(0o700)
    expect(made.certPath).toBe(join(dir, 'tls', 'cert.pem'))
    expect(readdirSync(join(dir, 'tls')).sort()).toEqual(['cert.pem', 'key.pem']) // no leftovers
  })

  it('reuses the certificate on the next start', () => {
    const dir = dataDir()
    const first = localCertificate(dir)
    const second = localCertificate(dir)
    expect(second.generated).toBe(false)
    expect(second.fingerprint).toBe(first.fingerprint)
  })

  it('makes a new one when the files are damaged or do not belong together', () => {
    const dir = dataDir()
    const first = localCertificate(dir)
    writeFileSync(join(dir, 'tls', 'cert.pem'), 'not a certificate')
    const second = localCertificate(dir)
    expect(second.generated).toBe(true)
    expect(second.fingerprint).not.toBe(first.fingerprint)
    const other = localCertificate(dataDir())
    writeFileSync(join(dir, 'tls', 'key.pem'), other.key)
    expect(localCertificate(dir).generated).toBe(true)
  })
})

describe('a class on a --domain', () => {
  it('makes the self-signed certificate cover the domain and every name under it, once', () => {
    const dir = dataDir()
    localCertificate(dir)
    const made = localCertificate(dir, 'class.test')
    expect(made.generated).toBe(true) // the one without the domain no longer serves
    const x509 = new X509Certificate(made.cert)
    expect(x509.checkHost('class.test')).toBe('class.test')
    expect(x509.checkHost('49983-abc.class.test')).toBe('*.class.test')
    expect(localCertificate(dir, 'class.test').generated).toBe(false)
  })

  it('takes the school’s certificate and key, and refuses a pair that does not fit', () => {
    const dir = dataDir()
    const school = localCertificate(dir, 'class.test')
    const keyPath = join(dir, 'tls', 'key.pem')
    const files = { cert: school.certPath, key: keyPath }
    expect(certificateFromFiles(files, 'class.test').fingerprint).toBe(school.fingerprint)
    expect(() => certificateFromFiles(files, 'other.test')).toThrow('must cover other.test and *.other.test')
    const stranger = localCertificate(dataDir())
    writeFileSync(keyPath, stranger.key)
    expect(() => certificateFromFiles(files)).toThrow('is not the private key of')
    expect(() => certificateFromFiles({ ...files, cert: join(dir, 'missing.pem') })).toThrow(
      '--tls-cert/--tls-key',
    )
  })
})

describe('--tls', () => {
  const base = ['--data', '/tmp/x']
  it('is off unless asked for by flag or SANDBOX_TLS=1', () => {
    expect(parsePlatformConfig(base, {})).toMatchObject({ tls: false })
    expect(parsePlatformConfig([...base, '--tls'], {})).toMatchObject({ tls: true })
    expect(parsePlatformConfig(base, { SANDBOX_TLS: '1' })).toMatchObject({ tls: true })
    expect(parsePlatformConfig(base, { SANDBOX_TLS: '0' })).toMatchObject({ tls: false })
  })
})
