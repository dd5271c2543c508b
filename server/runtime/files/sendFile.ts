import { constants } from 'node:fs'
import { type FileHandle, open } from 'node:fs/promises'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { basename } from 'node:path'
import { pipeline } from 'node:stream/promises'
import { createGzip } from 'node:zlib'
import { errnoCode, messageOf } from '../errors'
import { negotiateEncoding } from './acceptEncoding'
import { parseByteRange } from './byteRange'
import { contentTypeFor, sniffContentType } from './contentType'
import { FilesError } from './filesError'

/**
 * `inline; filename="<base>"` with the name quoted as Go's %q does (backslash escapes for
 * quotes and control characters). The name's UTF-8 goes out as raw bytes, as envd sends it;
 * Node takes header text as latin1, so the bytes are passed through that way.
 */
export function contentDisposition(name: string, kind: 'inline' | 'attachment' = 'inline'): string {
  const escapes: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what gets escaped
  const quoted = name.replace(/["\\\x00-\x1f\x7f]/g, (c) => {
    return escapes[c] ?? `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`
  })
  return `${kind}; filename="${Buffer.from(quoted, 'utf8').toString('latin1')}"`
}

/** Opens a file to download; never blocks on a FIFO, refuses anything but a regular file. */
async function openRegular(path: string): Promise<{ handle: FileHandle; size: number; mtime: Date }> {
  let handle: FileHandle
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK)
  } catch (err) {
    if (errnoCode(err) === 'ENOENT') throw new FilesError(404, `path '${path}' does not exist`)
    throw new FilesError(500, `error checking if path exists '${path}': ${messageOf(err)}`)
  }
  try {
    const st = await handle.stat()
    if (st.isDirectory()) throw new FilesError(400, `path '${path}' is a directory`)
    // envd would stream a FIFO or a device forever; a download means a file.
    if (!st.isFile()) throw new FilesError(400, `path '${path}' is not a regular file`)
    return { handle, size: st.size, mtime: st.mtime }
  } catch (err) {
    await handle.close()
    if (err instanceof FilesError) throw err
    throw new FilesError(500, `error getting file info '${path}': ${messageOf(err)}`)
  }
}

/** Go's checkIfModifiedSince / If-None-Match "*" handling, for a resource without an ETag. */
function notModified(req: IncomingMessage, mtime: Date): boolean {
  const noneMatch = req.headers['if-none-match']
  if (noneMatch !== undefined) return noneMatch.split(',').some((tag) => tag.trim() === '*')
  const since = req.headers['if-modified-since']
  if (!since) return false
  const sinceMs = Date.parse(since)
  return !Number.isNaN(sinceMs) && Math.floor(mtime.getTime() / 1000) * 1000 <= sinceMs
}

/** Go's If-Unmodified-Since: a file changed after the date fails the precondition (412). */
function preconditionFailed(req: IncomingMessage, mtime: Date): boolean {
  const header = req.headers['if-unmodified-since']
  if (!header) return false
  const ms = Date.parse(header)
  return !Number.isNaN(ms) && Math.floor(mtime.getTime() / 1000) * 1000 > ms
}

/** Go's If-Range: a Range applies only if the file is unchanged since the given date. */
function rangeStillValid(req: IncomingMessage, mtime: Date): boolean {
  const header = req.headers['if-range']
  if (typeof header !== 'string' || header === '') return true
  const ms = Date.parse(header)
  return !Number.isNaN(ms) && Math.floor(mtime.getTime() / 1000) * 1000 === ms
}

/** The first bytes of a file, for sniffing its type. */
async function head(handle: FileHandle, size: number): Promise<Uint8Array> {
  const buffer = Buffer.alloc(Math.min(size, 512))
  const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0)
  return buffer.subarray(0, bytesRead)
}

/**
 * GET /files for a resolved path (envd-api.md §7): gzip when Accept-Encoding prefers it,
 * otherwise Go's ServeContent behaviour (Last-Modified, Accept-Ranges, one Range → 206,
 * conditional requests → 304/412). The file is streamed, never read whole.
 */
export async function sendFile(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  disposition: 'inline' | 'attachment' = 'inline',
): Promise<void> {
  const conditional =
    req.headers.range !== undefined ||
    req.headers['if-modified-since'] !== undefined ||
    req.headers['if-none-match'] !== undefined ||
    req.headers['if-unmodified-since'] !== undefined
  const encoding = conditional ? 'identity' : negotiateEncoding(req.headers['accept-encoding'])
  const file = await openRegular(path)
  const { handle, size, mtime } = file
  try {
    if (encoding === undefined)
      throw new FilesError(406, 'no acceptable encoding: identity and gzip are both refused')
    res.setHeader('Content-Disposition', contentDisposition(basename(path), disposition))
    if (encoding === 'gzip') {
      res.setHeader('Content-Type', contentTypeFor(path) ?? 'application/octet-stream')
      res.setHeader('Content-Encoding', 'gzip')
      const vary = res.getHeader('Vary')
      res.setHeader('Vary', vary ? `${String(vary)}, Accept-Encoding` : 'Accept-Encoding')
      res.writeHead(200)
      await pipeline(handle.createReadStream(), createGzip(), res)
      return
    }

    if (mtime.getTime() > 0) res.setHeader('Last-Modified', mtime.toUTCString())
    if (preconditionFailed(req, mtime)) {
      res.writeHead(412).end()
      return
    }
    if (notModified(req, mtime)) {
      res.writeHead(304).end()
      return
    }
    res.setHeader('Content-Type', contentTypeFor(path) ?? sniffContentType(await head(handle, size)))
    res.setHeader('Accept-Ranges', 'bytes')
    const range = rangeStillValid(req, mtime) ? parseByteRange(req.headers.range, size) : 'whole'
    if (range === 'unsatisfiable') {
      res.setHeader('Content-Range', `bytes */${size}`)
      res.setHeader('Content-Type', 'text/plain; charset=utf-8')
      res.writeHead(416).end('invalid range: failed to overlap\n')
      return
    }
    if (range === 'whole') {
      res.setHeader('Content-Length', size)
      res.writeHead(200)
      // Exactly the size Stat gave, as envd (Go's ServeContent): a file of /proc says 0 and has
      // more; sending it would break the declared length and with it the connection.
      if (size === 0) res.end()
      else await pipeline(handle.createReadStream({ start: 0, end: size - 1 }), res)
      return
    }
    res.setHeader('Content-Range', `bytes ${range.start}-${range.end}/${size}`)
    res.setHeader('Content-Length', range.end - range.start + 1)
    res.writeHead(206)
    await pipeline(handle.createReadStream({ start: range.start, end: range.end }), res)
  } finally {
    // The read stream closes the handle itself; this covers the paths that never made one.
    await handle.close().catch(() => {})
  }
}
