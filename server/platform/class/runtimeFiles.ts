import { randomBytes } from 'node:crypto'
import { request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { Code, ConnectError, createClient } from '@connectrpc/connect'
import { type EntryInfo, Filesystem } from '../../../src/gen/filesystem_pb'
import { sandboxUser } from '../launcher/sandboxEtcFiles'
import { lookupWithLocalhost, type RuntimeAddress, transportFor } from './sandboxCommands'

/** How long one call to a sandbox's runtime may take, a file's bytes included. */
const callTimeoutMs = 30_000

/** A /files call the runtime refused or could not finish, with its status (0: unreachable) and words. */
export class RuntimeFilesError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}

/** A file that is larger than its reader takes. */
export class TooLargeError extends Error {}

/** A sandbox's files through its runtime's public API, as any client of envd reads and writes them. */
export interface RuntimeFiles {
  /** The entries of a folder (ListDir, depth 1): a link is listed with its target's type and `symlinkTarget`. */
  list(path: string): Promise<EntryInfo[]>
  /** One entry (Stat), undefined where nothing is. */
  stat(path: string): Promise<EntryInfo | undefined>
  /** A file's bytes (GET /files); TooLargeError past `maxBytes`, read no further. */
  read(path: string, maxBytes: number): Promise<Uint8Array>
  /** Writes a file, making its folders (POST /files). */
  write(path: string, content: Uint8Array): Promise<void>
}

/**
 * The filesystem of a sandbox's runtime, as the sandbox's user, through envd's public API only
 * (filesystem.Filesystem and /files), so it reads an E2B sandbox as it reads one of the stack's.
 */
export function runtimeFiles(runtime: RuntimeAddress): RuntimeFiles {
  const client = createClient(Filesystem, transportFor(runtime))
  const call = { timeoutMs: callTimeoutMs, headers: { Authorization: basicUser } }
  return {
    async list(path) {
      return (await client.listDir({ path, depth: 1 }, call)).entries
    },
    async stat(path) {
      try {
        return (await client.stat({ path }, call)).entry
      } catch (err) {
        if (ConnectError.from(err).code === Code.NotFound) return undefined
        throw err
      }
    },
    async read(path, maxBytes) {
      const res = await filesCall(runtime, 'GET', path)
      const chunks: Buffer[] = []
      let bytes = 0
      for await (const chunk of res as AsyncIterable<Buffer>) {
        bytes += chunk.byteLength
        if (bytes > maxBytes) {
          res.destroy()
          throw new TooLargeError(`${path} is larger than ${maxBytes} bytes`)
        }
        chunks.push(chunk)
      }
      return new Uint8Array(Buffer.concat(chunks))
    },
    async write(path, content) {
      // Multipart with the path in the query: what every envd takes, old and new.
      const boundary = `----grader${randomBytes(12).toString('hex')}`
      const body = Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="upload"\r\n` +
            'Content-Type: application/octet-stream\r\n\r\n',
        ),
        content,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ])
      const res = await filesCall(runtime, 'POST', path, {
        'Content-Type': `multipart/form-data; boundary=${boundary}`,
        body,
      })
      res.resume()
    },
  }
}

/** envd's way of naming the user a filesystem call acts as: Basic auth with the name alone. */
const basicUser = `Basic ${Buffer.from(`${sandboxUser.name}:`).toString('base64')}`

/** One /files request; resolves on a 2xx with the body still to read, else a RuntimeFilesError. */
function filesCall(
  runtime: RuntimeAddress,
  method: 'GET' | 'POST',
  path: string,
  upload?: { 'Content-Type': string; body: Buffer },
): Promise<IncomingMessage> {
  const query = new URLSearchParams({ path, username: sandboxUser.name })
  const headers: Record<string, string> = {
    ...(runtime.accessToken ? { 'X-Access-Token': runtime.accessToken } : {}),
    ...(upload
      ? { 'Content-Type': upload['Content-Type'], 'Content-Length': String(upload.body.byteLength) }
      : {}),
  }
  let options: RequestOptions
  let send = httpRequest
  if ('runtimeUrl' in runtime) {
    const url = new URL(`/files?${query}`, runtime.runtimeUrl)
    if (url.protocol === 'https:') send = httpsRequest
    options = {
      hostname: url.hostname,
      port: url.port,
      path: `${url.pathname}${url.search}`,
      lookup: lookupWithLocalhost,
    }
  } else {
    options = runtime.socketPath
      ? { socketPath: runtime.socketPath, path: `/files?${query}` }
      : { host: '127.0.0.1', port: runtime.port, path: `/files?${query}` }
  }
  return new Promise((resolve, reject) => {
    const req = send({ ...options, method, headers, timeout: callTimeoutMs }, (res) => {
      const status = res.statusCode ?? 0
      if (status >= 200 && status < 300) return resolve(res)
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => {
        if (text.length < 2000) text += chunk
      })
      res.on('end', () => reject(new RuntimeFilesError(status, filesMessage(status, text))))
      res.on('error', reject)
    })
    req.on('timeout', () => req.destroy(new Error(`no answer within ${callTimeoutMs / 1000} s`)))
    req.on('error', (err) =>
      reject(new RuntimeFilesError(0, `the sandbox's runtime could not be reached: ${err.message}`)),
    )
    req.end(upload?.body)
  })
}

/** The runtime's own words for a refusal (envd's `{code, message}`, or E2B's proxy's). */
function filesMessage(status: number, text: string): string {
  try {
    const body = JSON.parse(text) as { message?: unknown }
    if (typeof body.message === 'string') return body.message
  } catch {}
  return text.trim().slice(0, 300) || `the sandbox's runtime answered ${status}`
}
