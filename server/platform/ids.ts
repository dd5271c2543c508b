import { randomBytes, randomInt } from 'node:crypto'

const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789'

/** A new sandbox id: 20 lowercase alphanumerics, like E2B's, safe in host names and paths. */
export function newSandboxId(): string {
  let id = ''
  for (let i = 0; i < 20; i++) id += alphabet[randomInt(alphabet.length)]
  return id
}

/** True for something that can be a sandbox id; anything else never reaches a path or a lookup. */
export function isSandboxId(value: string): boolean {
  return /^[a-z0-9]{1,64}$/.test(value)
}

/** A secret for an envdAccessToken or an API key: 32 random bytes, URL-safe. */
export function newSecret(prefix = ''): string {
  return prefix + randomBytes(32).toString('base64url')
}
