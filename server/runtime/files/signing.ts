import { createHash } from 'node:crypto'
import { tokensMatch } from '../accessToken'

/** What a signed /files URL grants: GET is `read`, POST is `write`. */
export type FileOperation = 'read' | 'write'

/**
 * envd's URL signature (envd-api.md §2.2): "v1_" + unpadded base64 of SHA-256 over
 * `path:operation:username:token` (`:expiration` appended when the URL expires). `path` and
 * `username` are the raw query values, "" when absent.
 */
export function fileSignature(
  path: string,
  operation: FileOperation,
  username: string,
  accessToken: string,
  expiration?: number,
): string {
  const parts = [path, operation, username, accessToken]
  if (expiration !== undefined) parts.push(String(expiration))
  const digest = createHash('sha256').update(parts.join(':'), 'utf8').digest('base64')
  return `v1_${digest.replace(/=+$/, '')}`
}

/** What a /files request presents for the signing check. */
export interface SigningInput {
  operation: FileOperation
  /** The runtime's access token; undefined means no auth at all. */
  accessToken: string | undefined
  /** X-Access-Token as sent, if any. */
  headerToken: string | undefined
  query: URLSearchParams
  /** `signature_expiration`, already parsed. */
  expiration: number | undefined
  nowSeconds: number
}

/**
 * envd's validateSigning, in its order: no token configured → allowed; a token header must
 * match (a good signature does not rescue a wrong header); otherwise a valid, unexpired
 * signature is required. Returns the 401 message, or undefined when the request may proceed.
 */
export function signingError(input: SigningInput): string | undefined {
  const { accessToken, headerToken, query } = input
  if (accessToken === undefined) return undefined
  if (headerToken !== undefined && headerToken !== '') {
    return tokensMatch(headerToken, accessToken)
      ? undefined
      : 'access token present in header but does not match'
  }
  const signature = query.get('signature')
  if (!signature) return 'missing signature query parameter'
  const expected = fileSignature(
    query.get('path') ?? '',
    input.operation,
    query.get('username') ?? '',
    accessToken,
    input.expiration,
  )
  if (!tokensMatch(signature, expected)) return 'invalid signature'
  if (input.expiration !== undefined && input.expiration < input.nowSeconds)
    return 'signature is already expired'
  return undefined
}
