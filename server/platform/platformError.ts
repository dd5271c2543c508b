/** A platform API failure with its HTTP status; the API answers `{code, message}` with it. */
export class PlatformError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}

/** E2B's 404 wording for a sandbox that is unknown (or not ours). */
export const sandboxNotFound = (id: string) =>
  new PlatformError(404, `Sandbox "${id}" doesn't exist or you don't have access to it`)
