import { z } from 'zod'
import { type CommandName, type EmbedCommands, embedProtocol } from './protocol'

const path = z.string().min(1).max(4096)
const panel = z.enum(['files', 'editor', 'terminal', 'preview'])

/** The handshake, as the IDE accepts it (the port arrives beside it, in `event.ports`). */
export const connectSchema = z.strictObject({
  type: z.literal('sandbox-ide:connect'),
  protocol: z.literal(embedProtocol),
  runtimeUrl: z.url({ protocol: /^https?$/ }),
  accessToken: z.string().max(4096).nullable(),
})

/** Every command's params: a parent's message is checked before anything acts on it. */
export const paramsSchemas: { [C in CommandName]: z.ZodType<EmbedCommands[C]['params']> } = {
  openFile: z.strictObject({ path }),
  readFile: z.strictObject({ path }),
  writeFile: z.strictObject({ path, content: z.string().max(50 * 1024 * 1024) }),
  runCommand: z.strictObject({ command: z.string().min(1).max(100_000), cwd: path.optional() }),
  setTheme: z.strictObject({ theme: z.enum(['light', 'dark', 'system']) }),
  setLayout: z.strictObject({ panels: z.array(panel).max(4) }),
  openPreview: z.strictObject({ port: z.number().int().min(1).max(65535), path: path.optional() }),
  focus: z.strictObject({ panel: panel.optional() }),
}

export const requestSchema = z.strictObject({
  kind: z.literal('request'),
  id: z.number().int().nonnegative(),
  method: z.string(),
  params: z.unknown(),
})

/** The first problem in a zod error, as one readable line. */
export function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0]
  if (!issue) return 'invalid message'
  return issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message
}
