import type { IncomingMessage, ServerResponse } from 'node:http'
import { sendEnvdError } from '../accessToken'
import type { RuntimeContext } from '../context'

/** GET and POST /files (placeholder until implemented). */
export function filesHandler(_rt: RuntimeContext) {
  return async (_req: IncomingMessage, res: ServerResponse, _url: URL): Promise<void> => {
    sendEnvdError(res, 501, 'not implemented')
  }
}
