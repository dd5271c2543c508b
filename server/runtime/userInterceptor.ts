import type { Interceptor } from '@connectrpc/connect'
import { userKey } from './context'
import { unauthenticated } from './errors'
import type { User, UserDirectory } from './users'

/** The username of an `Authorization: Basic base64("<user>:")` header; the password is ignored. */
export function basicUsername(header: string | null | undefined): string | undefined {
  const match = header?.match(/^Basic\s+(\S+)$/i)
  if (!match?.[1]) return undefined
  const decoded = Buffer.from(match[1], 'base64').toString('utf8')
  const colon = decoded.indexOf(':')
  return colon === -1 ? decoded : decoded.slice(0, colon)
}

/** The user a Basic header names; an unknown name is `unauthenticated`, as in envd. */
export function userFromBasic(header: string | null | undefined, users: UserDirectory): User | undefined {
  const name = basicUsername(header)
  if (name === undefined) return undefined
  const user = users.lookup(name)
  if (!user) throw unauthenticated(`invalid username: '${name}'`)
  return user
}

/** Selects the calling user of every RPC from `Authorization: Basic`. */
export function userInterceptor(users: UserDirectory): Interceptor {
  return (next) => async (req) => {
    const user = userFromBasic(req.header.get('authorization'), users)
    if (user) req.contextValues.set(userKey, user)
    return next(req)
  }
}
