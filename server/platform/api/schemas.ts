import { z } from 'zod'

/** Longest timeout a sandbox may ask for: a week (E2B's plans allow up to a day). */
const maxTimeoutSeconds = 7 * 24 * 60 * 60

const timeout = z.number().int().min(0).max(maxTimeoutSeconds)
const stringMap = z
  .record(z.string().max(256), z.string().max(4096))
  .refine((map) => Object.keys(map).length <= 100, 'at most 100 entries')

/** POST /sandboxes and /v2/sandboxes: what the e2b SDK sends, and nothing else. */
export const createSandboxBody = z.strictObject({
  templateID: z.string().min(1).max(128).optional(),
  timeout: timeout.optional(),
  autoPause: z.boolean().optional(),
  autoPauseMemory: z.boolean().optional(),
  autoResume: z.strictObject({ enabled: z.boolean() }).optional(),
  secure: z.boolean().optional(),
  allow_internet_access: z.boolean().optional(),
  metadata: stringMap.optional(),
  envVars: stringMap.optional(),
})

/** POST /v2/sandboxes/{id}/connect (body optional) and /sandboxes/{id}/connect. */
export const connectBody = z.strictObject({ timeout: timeout.optional(), memory: z.boolean().optional() })

/** POST /sandboxes/{id}/resume (deprecated by E2B, still served). */
export const resumeBody = z.strictObject({
  timeout: timeout.optional(),
  autoPause: z.boolean().optional(),
  memory: z.boolean().optional(),
})

/** POST /sandboxes/{id}/pause (body optional). */
export const pauseBody = z.strictObject({ memory: z.boolean().optional() })

/** POST /sandboxes/{id}/timeout */
export const timeoutBody = z.strictObject({ timeout })
