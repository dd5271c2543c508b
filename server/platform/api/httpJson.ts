import type { IncomingMessage, ServerResponse } from 'node:http'
import type { z } from 'zod'
import { PlatformError } from '../platformError'

/** Largest request body the platform API reads. */
export const maxBodyBytes = 64 * 1024

/** Sends a JSON body with a status. */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body)
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
    ...headers,
  })
  res.end(text)
}

/** E2B's error body: `{"code": <status>, "message": "..."}`. */
export function sendError(res: ServerResponse, status: number, message: string): void {
  sendJson(res, status, { code: status, message })
}

/** How long a JSON body may pause mid-way before the request is answered 408. */
export const bodyIdleMs = 10_000

/**
 * Reads the whole body, refusing more than `maxBodyBytes` with 413 before it is all in memory,
 * and a body that stops half-way with 408 once nothing came for `bodyIdleMs`. Either way it
 * stops listening and leaves the request as it is (never destroyed, as a `for await` that
 * throws would do), so settleUnreadBody deals with the rest after the answer.
 */
export function readBody(req: IncomingMessage): Promise<string> {
  const tooLarge = () => new PlatformError(413, `request body too large (limit ${maxBodyBytes} bytes)`)
  if (Number(req.headers['content-length'] ?? 0) > maxBodyBytes) return Promise.reject(tooLarge())
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const idle = () => {
      stop()
      reject(new PlatformError(408, `the request body stopped arriving (nothing for ${bodyIdleMs / 1000} s)`))
    }
    const timer = setTimeout(idle, bodyIdleMs)
    const stop = () => {
      clearTimeout(timer)
      req.off('data', onData)
      req.off('end', onEnd)
      req.off('error', onError)
      req.pause()
    }
    const onData = (chunk: Buffer) => {
      timer.refresh()
      size += chunk.length
      if (size <= maxBodyBytes) return void chunks.push(chunk)
      stop()
      reject(tooLarge())
    }
    const onEnd = () => {
      stop()
      resolve(Buffer.concat(chunks).toString('utf8'))
    }
    const onError = (err: Error) => {
      stop()
      reject(err)
    }
    req.on('data', onData)
    req.once('end', onEnd)
    req.once('error', onError)
  })
}

/** A readable sentence for the first problem zod found. */
function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0]
  if (!issue) return 'invalid request body'
  const where = issue.path.length ? ` at '${issue.path.join('.')}'` : ''
  return `invalid request body${where}: ${issue.message}`
}

/**
 * Parses the JSON body against `schema`; an empty body counts as `{}` where `optional`.
 * Malformed JSON, wrong types and unknown fields are 400 with a message that says which.
 */
export async function readJsonBody<T extends z.ZodType>(
  req: IncomingMessage,
  schema: T,
  { optional = false } = {},
): Promise<z.infer<T>> {
  const text = await readBody(req)
  if (text.trim() === '' && optional) return schema.parse({})
  const type = req.headers['content-type'] ?? ''
  if (!/^application\/json\b/i.test(type)) {
    throw new PlatformError(400, `request body must be application/json, not '${type || 'none'}'`)
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (err) {
    throw new PlatformError(400, `malformed JSON: ${err instanceof Error ? err.message : String(err)}`)
  }
  const parsed = schema.safeParse(json)
  if (!parsed.success) throw new PlatformError(400, describeIssue(parsed.error))
  return parsed.data
}
