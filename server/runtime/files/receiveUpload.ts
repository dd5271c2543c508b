import type { IncomingMessage } from 'node:http'
import { basename } from 'node:path'
import { PassThrough, Readable } from 'node:stream'
import { createGunzip } from 'node:zlib'
import busboy from 'busboy'
import { messageOf } from '../errors'
import type { User } from '../users'
import { FilesError } from './filesError'
import { metadataFromHeaders } from './metadataHeaders'
import type { UploadJournal } from './uploadJournal'
import { writeUploadedFile } from './writeUploadedFile'

/** One written file in the POST /files answer (envd's small EntryInfo; `type` is always file). */
export interface UploadedFile {
  path: string
  name: string
  type: 'file'
  metadata?: Record<string, string>
}

/** Who uploads and how a client path becomes an absolute one. */
export interface UploadTarget {
  user: User
  /** The resolved `path` query parameter, if one was given. */
  path: string | undefined
  /** Resolves a multipart part's filename (a full path, relative to home when relative). */
  resolve(path: string): string
  /** The runtime's journal of in-place writes (uploadJournal.ts). */
  journal?: UploadJournal
}

/** Largest `file` part without a filename: busboy holds such a part in memory as a string. */
const fieldBytes = 16 * 1024 * 1024

/**
 * The body as a stream of its own, as the gzip path's is: a writer that fails (a full disk)
 * destroys it, not the request, whose rest the server then drains, so the answer goes back over
 * a connection that is still whole (a destroyed request cuts it, and a proxy in front sees EPIPE).
 */
function detached(req: IncomingMessage): Readable {
  const body = new PassThrough()
  req.on('error', (err) => body.destroy(err))
  req.on('close', () => {
    if (!req.complete) body.destroy(new Error('the request was aborted'))
  })
  return req.pipe(body)
}

/** The request body with `Content-Encoding` undone: identity, or gzip; anything else is 400. */
function decodedBody(req: IncomingMessage): Readable {
  const encoding = (req.headers['content-encoding'] ?? '').trim().toLowerCase()
  if (encoding === '' || encoding === 'identity') return detached(req)
  if (encoding !== 'gzip') throw new FilesError(400, `unsupported Content-Encoding: ${encoding}`)
  const gunzip = createGunzip()
  req.on('error', (err) => gunzip.destroy(err))
  // Corrupt data can fail it before the writer is attached; the writer's pipeline still sees
  // the stored error, so this only keeps it from being an uncaught exception.
  gunzip.on('error', () => {})
  return req.pipe(gunzip)
}

/** Writes the `file` parts of a multipart body, one after the other; the first failure ends it. */
function receiveMultipart(
  req: IncomingMessage,
  body: Readable,
  target: UploadTarget,
  metadata: Record<string, string>,
): Promise<UploadedFile[]> {
  return new Promise((resolve, reject) => {
    const results: UploadedFile[] = []
    let parts = 0
    let failed = false
    let chain = Promise.resolve()
    let parser: busboy.Busboy
    try {
      // Filenames are full paths in UTF-8 (the SDK sends them so); busboy would cut and latin1 them.
      parser = busboy({
        headers: req.headers,
        preservePath: true,
        defParamCharset: 'utf8',
        limits: { fieldSize: fieldBytes },
      })
    } catch (err) {
      // No boundary, or a multipart type other than form-data.
      req.resume()
      reject(new FilesError(400, `error parsing multipart request: ${messageOf(err)}`))
      return
    }

    const fail = (err: unknown) => {
      if (failed) return
      failed = true
      body.unpipe(parser)
      // Also ends the part being written, whose temporary file is then removed.
      parser.destroy()
      req.resume()
      const error =
        err instanceof FilesError
          ? err
          : new FilesError(400, `error parsing multipart request: ${messageOf(err)}`)
      // Answer once the write in flight has cleaned up after itself.
      void chain.then(() => reject(error))
    }

    /** Writes one `file` part, after those before it; the path query or its filename says where. */
    const take = (stream: Readable, filename: string | undefined) => {
      parts++
      if (target.path !== undefined && parts > 1) {
        stream.resume()
        fail(new FilesError(400, `you cannot upload multiple files to the same path '${target.path}'`))
        return
      }
      chain = chain
        .then(async () => {
          if (failed) return
          const path = target.path ?? target.resolve(filename ?? '')
          await writeUploadedFile(stream, path, target.user, metadata, target.journal)
          results.push(uploadedFile(path, metadata))
        })
        .catch(fail)
    }
    parser.on('file', (field, stream, info) => {
      // Ending the parse early destroys the current part with an error; the writer, if any,
      // sees it through its own pipeline, and an ignored part must not crash the process.
      stream.on('error', () => {})
      if (field !== 'file' || failed) {
        stream.resume()
        return
      }
      take(stream, info.filename)
    })
    // A `file` part without a filename (FormData.append('file', 'some text'), as E2B's docs
    // show for upload URLs) is a form field to busboy; envd takes every part named `file`.
    parser.on('field', (field, value, info) => {
      if (field !== 'file' || failed) return
      if (info.valueTruncated) {
        fail(
          new FilesError(
            400,
            `a 'file' part without a filename is limited to ${fieldBytes} bytes: send a filename`,
          ),
        )
        return
      }
      take(Readable.from([Buffer.from(value, 'utf8')]), undefined)
    })
    parser.on('error', fail)
    parser.on('close', () => {
      void chain.then(() => {
        if (!failed) resolve(results)
      })
    })
    body.on('error', fail)
    req.on('close', () => {
      if (!req.complete) fail(new FilesError(400, 'request aborted before the upload was complete'))
    })
    body.pipe(parser)
  })
}

function uploadedFile(path: string, metadata: Record<string, string>): UploadedFile {
  const file: UploadedFile = { path, name: basename(path), type: 'file' }
  if (Object.keys(metadata).length > 0) file.metadata = metadata
  return file
}

/**
 * POST /files (envd-api.md §7): a multipart body (its `file` parts) or a raw
 * `application/octet-stream` body for the `path` query, gzip-decoded if sent so, streamed to
 * disk. `X-Metadata-*` headers become the files' metadata. Returns what was written.
 */
export async function receiveUpload(req: IncomingMessage, target: UploadTarget): Promise<UploadedFile[]> {
  const metadata = metadataFromHeaders(req.headers)
  const contentType = req.headers['content-type'] ?? ''
  const mediaType = (contentType.split(';')[0] ?? '').trim().toLowerCase()
  const multipart = mediaType.startsWith('multipart/')
  if (!multipart && mediaType !== 'application/octet-stream')
    throw new FilesError(400, `unsupported content type: ${contentType}`)
  const path = target.path
  if (!multipart && path === undefined)
    throw new FilesError(400, 'the path query parameter is required for an application/octet-stream upload')
  const body = decodedBody(req)
  if (multipart || path === undefined) return receiveMultipart(req, body, target, metadata)

  try {
    await writeUploadedFile(body, path, target.user, metadata, target.journal)
  } catch (err) {
    req.resume()
    throw err instanceof FilesError ? err : new FilesError(400, `error reading the upload: ${messageOf(err)}`)
  }
  return [uploadedFile(path, metadata)]
}
