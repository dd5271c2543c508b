import { z } from 'zod'

/** A timeout the IDE may ask for: a second to a week (the platform's own limit). */
const seconds = z
  .number()
  .int()
  .min(1)
  .max(7 * 24 * 60 * 60)

/** POST /ide/api/auth: the token from the IDE's link. */
export const signInBody = z.strictObject({ token: z.string().min(1).max(256) })

/** POST /ide/api/sandboxes/{id}/join-links (body optional): who it is for, how long it may wait. */
export const joinLinkBody = z.strictObject({
  student: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[\p{L}\p{N} ._'-]+$/u, "must be a name: letters, digits, spaces, . _ ' -")
    .optional(),
  className: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9._-]+$/, 'must be letters, digits, . _ -')
    .optional(),
  expiresInSeconds: seconds.optional(),
})

/** POST /ide/api/sandboxes (body optional); the template catalog judges the id itself. */
export const createSandboxBody = z.strictObject({
  timeoutSeconds: seconds.optional(),
  templateId: z.string().min(1).max(64).optional(),
})

/** POST .../resume (body optional). */
export const resumeSandboxBody = z.strictObject({ timeoutSeconds: seconds.optional() })

/** POST .../timeout */
export const sandboxTimeoutBody = z.strictObject({ seconds })

/** A host name with an optional port, as sandbox domains are written (`e2b.app`, `localhost:8787`). */
export const hostWithPort = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:\d{1,5})?$/i

/** POST /ide/api/remotes: an E2B API key, and where that API and its sandboxes are. */
export const addRemoteBody = z.strictObject({
  // It travels as a header, so it must be a header-safe token.
  apiKey: z
    .string()
    .min(1)
    .max(1024)
    .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces'),
  apiUrl: z.string().min(1).max(2048).optional(),
  domain: z.string().max(253).regex(hostWithPort, 'must be a host name, optionally with a port').optional(),
})

/**
 * POST /ide/api/remotes/{remoteId}/sandboxes: an E2B template (E2B judges the id), a timeout, and
 * metadata as E2B keeps it (a class's `class` and `student`), bounded so a body cannot flood it.
 */
export const remoteSandboxBody = z.strictObject({
  templateId: z
    .string()
    .min(1)
    .max(128)
    .regex(/^[A-Za-z0-9._:/-]+$/, 'must be a template id or alias'),
  timeoutSeconds: seconds.optional(),
  metadata: z
    .record(z.string().min(1).max(64), z.string().max(256))
    .refine((m) => Object.keys(m).length <= 16, 'at most 16 metadata keys')
    .optional(),
})

/**
 * POST /ide/api/sandboxes/{id}/share-links: the guest's rights, minutes to expiry (a second to a
 * week; fractions allowed), name.
 */
export const shareLinkBody = z.strictObject({
  rights: z.enum(['edit', 'view']),
  minutes: z
    .number()
    .min(1 / 60)
    .max(7 * 24 * 60),
  name: z
    .string()
    .trim()
    .min(1)
    .max(40)
    .regex(/^[\p{L}\p{N} ._'-]+$/u, "must be a name: letters, digits, spaces, . _ ' -")
    .optional(),
})
