// zod's mini build (the same checks, functions instead of methods): a third of the full one's
// weight, which every embed pays before it is usable. English messages, as the full one has.

import { type CommandName, type EmbedCommands, embedProtocol } from '@sandbox-ide/embed/protocol'
import * as z from 'zod/mini'

z.config(z.locales.en())

const path = z.string().check(z.minLength(1), z.maxLength(4096))
const panel = z.enum(['files', 'editor', 'terminal', 'preview'])

/** The handshake, as the IDE accepts it (the port arrives beside it, in `event.ports`). */
export const connectSchema = z.strictObject({
  type: z.literal('sandbox-ide:connect'),
  protocol: z.literal(embedProtocol),
  runtimeUrl: z.url({ protocol: /^https?$/ }),
  accessToken: z.nullable(z.string().check(z.maxLength(4096))),
})

/** Every command's params: a parent's message is checked before anything acts on it. */
export const paramsSchemas: { [C in CommandName]: z.ZodMiniType<EmbedCommands[C]['params']> } = {
  openFile: z.strictObject({ path }),
  readFile: z.strictObject({ path }),
  writeFile: z.strictObject({ path, content: z.string().check(z.maxLength(50 * 1024 * 1024)) }),
  runCommand: z.strictObject({
    command: z.string().check(z.minLength(1), z.maxLength(100_000)),
    cwd: z.optional(path),
  }),
  setTheme: z.strictObject({ theme: z.enum(['light', 'dark', 'system']) }),
  setLayout: z.strictObject({ panels: z.array(panel).check(z.maxLength(4)) }),
  openPreview: z.strictObject({ port: z.int().check(z.gte(1), z.lte(65535)), path: z.optional(path) }),
  focus: z.strictObject({ panel: z.optional(panel) }),
}

export const requestSchema = z.strictObject({
  kind: z.literal('request'),
  id: z.int().check(z.nonnegative()),
  method: z.string(),
  params: z.unknown(),
})

/** The first problem in a zod error, as one readable line. */
export function firstIssue(error: z.core.$ZodError): string {
  const issue = error.issues[0]
  if (!issue) return 'invalid message'
  return issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message
}
