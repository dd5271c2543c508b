import type { HandlerContext } from '@connectrpc/connect'
import { callingUser, type RuntimeContext } from '../context'
import { resolvePath } from '../paths'

/** The absolute path an RPC's `path` field means for its calling user (envd-api.md §2.4). */
export function requestPath(path: string, ctx: HandlerContext, rt: RuntimeContext): string {
  return resolvePath(path, callingUser(ctx, rt), rt.options.defaultWorkdir)
}
