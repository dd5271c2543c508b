import { createContextKey, type HandlerContext } from '@connectrpc/connect'
import type { UploadJournal } from './files/uploadJournal'
import type { RuntimeOptions } from './options'
import type { User, UserDirectory } from './users'

/** What every service of one runtime shares. */
export interface RuntimeContext {
  options: RuntimeOptions
  users: UserDirectory
  /** Where in-place writes are written down while they run, so a kill loses nothing. */
  journal?: UploadJournal
}

/** The user a call runs as, set by the user interceptor from `Authorization: Basic`. */
export const userKey = createContextKey<User | undefined>(undefined, { description: 'calling user' })

/** The user the current RPC runs as. */
export function callingUser(ctx: HandlerContext, rt: RuntimeContext): User {
  return ctx.values.get(userKey) ?? rt.users.defaultUser
}
