import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Caller } from '../access/ideCredentials'
import type { SandboxRef } from '../sandboxRef'

/**
 * Answers one IDE API request, given what the route's pattern captured, in order (still
 * URL-encoded), and who is asking (absent on open routes); throws a PlatformError for an error
 * answer.
 */
export type IdeHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  params: string[],
  caller: Caller | undefined,
) => Promise<void>

/** A path pattern under /ide/api and the handler of each method it allows. */
export interface IdeRoute {
  pattern: RegExp
  /** Answers without the IDE's credential: only for what hands out no token and changes nothing. */
  open?: boolean
  /**
   * What a student may call besides the owner: `own-sandbox` when the first parameter is the
   * student's own sandbox, `any` for what holds nothing of anyone else's. Absent: the owner only.
   */
  students?: 'own-sandbox' | 'any'
  /** The sandbox an `own-sandbox` route is about: the stack's own named by the first parameter, unless said. */
  sandboxOf?: (params: string[]) => SandboxRef
  /** It changes the sandbox (pauses it, sets its timeout): refused to a view-only guest. */
  changesSandbox?: true
  methods: Partial<Record<string, IdeHandler>>
}
