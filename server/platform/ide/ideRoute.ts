import type { IncomingMessage, ServerResponse } from 'node:http'

/**
 * Answers one IDE API request, given what the route's pattern captured, in order (still
 * URL-encoded); throws a PlatformError for an error answer.
 */
export type IdeHandler = (req: IncomingMessage, res: ServerResponse, params: string[]) => Promise<void>

/** A path pattern under /ide/api and the handler of each method it allows. */
export interface IdeRoute {
  pattern: RegExp
  /** Answers without the IDE's credential: only for what hands out no token and changes nothing. */
  open?: boolean
  methods: Partial<Record<string, IdeHandler>>
}
