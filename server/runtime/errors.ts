import { Code, ConnectError } from '@connectrpc/connect'

/** Connect errors with the codes envd uses (envd-api.md §8); the message reaches the user. */
export const notFound = (message: string) => new ConnectError(message, Code.NotFound)
export const invalidArgument = (message: string) => new ConnectError(message, Code.InvalidArgument)
export const alreadyExists = (message: string) => new ConnectError(message, Code.AlreadyExists)
export const failedPrecondition = (message: string) => new ConnectError(message, Code.FailedPrecondition)
export const internal = (message: string) => new ConnectError(message, Code.Internal)
export const resourceExhausted = (message: string) => new ConnectError(message, Code.ResourceExhausted)
export const unimplemented = (message: string) => new ConnectError(message, Code.Unimplemented)
export const unauthenticated = (message: string) => new ConnectError(message, Code.Unauthenticated)
export const unknown = (message: string) => new ConnectError(message, Code.Unknown)

/** The errno code of a Node system error, if it is one. */
export function errnoCode(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string'
    ? err.code
    : undefined
}

/** A readable message for any thrown value. */
export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err)
}
