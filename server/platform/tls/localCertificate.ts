import { spawnSync } from 'node:child_process'
import { createPrivateKey, X509Certificate } from 'node:crypto'
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/** A certificate and its private key, PEM, as `tls.createSecureContext` takes them. */
export interface LocalCertificate {
  key: string
  cert: string
  /** The certificate's file, for users who want to trust it. */
  certPath: string
  /** SHA-256 fingerprint, as browsers show it. */
  fingerprint: string
  /** Made by this call (false: an earlier one was still good). */
  generated: boolean
}

const validDays = 365
/** Made again at start when less than this is left, so a stack is never started on an expiring one. */
const renewBeforeMs = 7 * 24 * 3600 * 1000

// The names: the platform's host (localhost, 127.0.0.1, [::1]) and the router's
// `{port}-{id}.localhost` names. Node refuses a wildcard right under a top-level name (and
// browsers are no more lenient), so `*.localhost` states intent more than it helps: sandbox
// hosts still need the certificate accepted (docs/local-stack.md, HTTPS and HTTP/2).
// Our own config instead of the system's openssl.cnf, whose defaults (CA:TRUE, no SANs) differ
// between distributions; `-addext` on top of them can collide with what they set.
const opensslConfig = (domain?: string) => `[req]
distinguished_name = dn
x509_extensions = ext
prompt = no
[dn]
CN = localhost
O = Sandbox IDE local stack
[ext]
subjectAltName = DNS:localhost, DNS:*.localhost, IP:127.0.0.1, IP:::1${domain ? `, DNS:${domain}, DNS:*.${domain}` : ''}
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = serverAuth
`

/** The kept certificate and key if whole, matching each other, covering our names and not about to expire. */
function reusable(
  keyPath: string,
  certPath: string,
  domain?: string,
): { key: string; cert: string } | undefined {
  if (!existsSync(keyPath) || !existsSync(certPath)) return undefined
  try {
    const key = readFileSync(keyPath, 'utf8')
    const cert = readFileSync(certPath, 'utf8')
    const x509 = new X509Certificate(cert)
    const fresh = Date.parse(x509.validTo) - Date.now() > renewBeforeMs
    const covers =
      x509.checkHost('localhost') !== undefined &&
      x509.checkIP('127.0.0.1') !== undefined &&
      (domain === undefined || x509.checkHost(`49983-a.${domain}`) !== undefined)
    return fresh && covers && x509.checkPrivateKey(createPrivateKey(key)) ? { key, cert } : undefined
  } catch {
    return undefined
  }
}

/**
 * The local stack's self-signed certificate for localhost, 127.0.0.1 and `*.localhost` (and
 * `--domain` and the names under it), made once with Debian's `openssl` into `<dataDir>/tls/` (key mode 0600) and reused while good.
 */
export function localCertificate(dataDir: string, domain?: string): LocalCertificate {
  const dir = join(dataDir, 'tls')
  const keyPath = join(dir, 'key.pem')
  const certPath = join(dir, 'cert.pem')
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  const existing = reusable(keyPath, certPath, domain)
  if (existing) {
    chmodSync(keyPath, 0o600)
    return {
      ...existing,
      certPath,
      fingerprint: new X509Certificate(existing.cert).fingerprint256,
      generated: false,
    }
  }
  const configPath = join(dir, 'openssl.cnf')
  const keyTemp = join(dir, `key.pem.${process.pid}.tmp`)
  const certTemp = join(dir, `cert.pem.${process.pid}.tmp`)
  writeFileSync(configPath, opensslConfig(domain))
  // Created empty with 0600 first: openssl would write the key with the umask's mode.
  writeFileSync(keyTemp, '', { mode: 0o600 })
  try {
    const result = spawnSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-sha256',
        '-days',
        String(validDays),
        '-config',
        configPath,
        '-keyout',
        keyTemp,
        '-out',
        certTemp,
      ],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
    )
    if (result.error && (result.error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new Error('--tls needs openssl to make its certificate: apt-get install openssl')
    }
    if (result.status !== 0) {
      throw new Error(
        `openssl could not make the certificate: ${(result.stderr || String(result.error)).trim()}`,
      )
    }
    chmodSync(keyTemp, 0o600)
    renameSync(keyTemp, keyPath)
    renameSync(certTemp, certPath)
  } finally {
    rmSync(keyTemp, { force: true })
    rmSync(certTemp, { force: true })
    rmSync(configPath, { force: true })
  }
  const key = readFileSync(keyPath, 'utf8')
  const cert = readFileSync(certPath, 'utf8')
  return { key, cert, certPath, fingerprint: new X509Certificate(cert).fingerprint256, generated: true }
}

/**
 * A certificate the user brings (`--tls-cert`, `--tls-key`: a school's, or one from their CA),
 * checked at start so a wrong or mismatched file stops the start with a reason, not the first
 * browser's handshake.
 */
export function certificateFromFiles(
  files: { cert: string; key: string },
  domain?: string,
): LocalCertificate {
  let key: string
  let cert: string
  let x509: X509Certificate
  try {
    key = readFileSync(files.key, 'utf8')
    cert = readFileSync(files.cert, 'utf8')
    x509 = new X509Certificate(cert)
  } catch (err) {
    throw new Error(`--tls-cert/--tls-key: ${(err as Error).message}`)
  }
  if (!x509.checkPrivateKey(createPrivateKey(key)))
    throw new Error(`--tls-key ${files.key} is not the private key of --tls-cert ${files.cert}`)
  if (Date.parse(x509.validTo) < Date.now())
    throw new Error(`--tls-cert ${files.cert} expired on ${x509.validTo}`)
  if (domain && (x509.checkHost(domain) === undefined || x509.checkHost(`49983-a.${domain}`) === undefined))
    throw new Error(`--tls-cert ${files.cert} must cover ${domain} and *.${domain}`)
  return { key, cert, certPath: files.cert, fingerprint: x509.fingerprint256, generated: false }
}
