import { isAbsolute, join, resolve } from 'node:path'
import { invalidArgument } from './errors'
import type { User } from './users'

/**
 * Resolves a client path as envd does (envd-api.md §2.4): empty means the workdir (or home),
 * `~` and `~/x` are home-relative, other relative paths join the user's home; `..` is resolved.
 */
export function resolvePath(path: string, user: User, defaultWorkdir?: string): string {
  if (path.includes('\0')) throw invalidArgument('path must not contain a NUL byte')
  if (path === '') return resolve(defaultWorkdir ?? user.home)
  if (path === '~') return resolve(user.home)
  if (path.startsWith('~/')) return resolve(join(user.home, path.slice(2)))
  if (path.startsWith('~')) throw invalidArgument(`cannot expand user-specific home dir: ${path}`)
  return isAbsolute(path) ? resolve(path) : resolve(join(user.home, path))
}
