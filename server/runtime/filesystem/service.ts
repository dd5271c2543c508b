import { create, fromBinary } from '@bufbuild/protobuf'
import type { HandlerContext, ServiceImpl } from '@connectrpc/connect'
import {
  type Filesystem,
  type ListDirResponse,
  ListDirResponseSchema,
  type WatchDirRequest,
  type WatchDirResponse,
  WatchDirResponseSchema,
} from '../../../src/gen/filesystem_pb'
import { callingUser, type RuntimeContext } from '../context'
import { keepaliveIntervalMs } from '../keepalive'
import { releaseWhenClientLeaves, withKeepalive } from '../streamLoop'
import { entriesPerChunk } from './dirChunks'
import { readsInChunks } from './dirEntries'
import { listDir, listDirInChunks } from './listDir'
import { asUnknownEntries, preEncodedEntries } from './listingBinary'
import { entriesJson, listingJson } from './listingJson'
import { makeDir } from './makeDir'
import { movePath } from './movePath'
import { removePath } from './removePath'
import { requestPath } from './requestPath'
import { statEntry } from './statEntry'
import { canStreamAnswer, streamAnswer } from './streamedAnswer'
import { WatcherRegistry } from './watcherRegistry'
import { type WatchSpec, WatchStream } from './watchStream'
import { watchTarget } from './watchTarget'

/** Resolves and validates what a WatchDir or CreateWatcher request asks to watch. */
async function watchSpec(
  req: Pick<WatchDirRequest, 'path' | 'recursive' | 'includeEntry' | 'allowNetworkMounts'>,
  ctx: HandlerContext,
  rt: RuntimeContext,
): Promise<WatchSpec> {
  const path = requestPath(req.path, ctx, rt)
  const realPath = await watchTarget(path, req.allowNetworkMounts)
  return { path, realPath, recursive: req.recursive, includeEntry: req.includeEntry }
}

/** The bytes of a ListDirResponse: `first`, then each chunk's, a piece a chunk. */
async function* answerBytes(
  first: Buffer,
  rest: AsyncGenerator<Buffer, void, undefined>,
): AsyncGenerator<Uint8Array, void, undefined> {
  try {
    if (first.length > 0) yield first
    for await (const chunk of rest) if (chunk.length > 0) yield chunk
  } finally {
    await rest.return()
  }
}

/** A ListDirResponse's bytes, chunk by chunk, as the same answer's JSON (listingJson.ts). */
async function* answerJson(bytes: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array, void, undefined> {
  async function* objects() {
    for await (const chunk of bytes) yield entriesJson(chunk)
  }
  yield* listingJson(objects())
}

/** A unary call whose messages travel in protobuf's binary encoding (`application/proto`). */
const asksForBinary = (ctx: HandlerContext) =>
  /^application\/proto\b/i.test(ctx.requestHeader.get('content-type') ?? '')

const startResponse = () => create(WatchDirResponseSchema, { event: { case: 'start', value: {} } })
const keepaliveResponse = () => create(WatchDirResponseSchema, { event: { case: 'keepalive', value: {} } })

/** filesystem.Filesystem as envd serves it (envd-api.md §4); `dispose` stops every watcher. */
export function filesystemService(rt: RuntimeContext): {
  impl: ServiceImpl<typeof Filesystem>
  dispose(): void
} {
  const registry = new WatcherRegistry(rt.users)
  const streams = new Set<WatchStream>()

  async function* watchDir(req: WatchDirRequest, ctx: HandlerContext): AsyncGenerator<WatchDirResponse> {
    const stream = new WatchStream(await watchSpec(req, ctx, rt), rt.users)
    streams.add(stream)
    const stop = () => {
      stream.dispose()
      streams.delete(stream)
    }
    let release = stop
    try {
      await stream.start()
      // From here the watcher goes the moment the client goes away, even if the stream is never resumed.
      release = releaseWhenClientLeaves(ctx.signal, stop)
      // Only now: the SDK treats `start` as "changes from here on are reported".
      yield startResponse()
      const interval = keepaliveIntervalMs(ctx.requestHeader.get('keepalive-ping-interval'))
      yield* withKeepalive(stream.responses, interval, keepaliveResponse, ctx.signal)
    } finally {
      release()
    }
  }

  /**
   * A folder's entries, one level, read in chunks by the native reader: its errors thrown before
   * the first entry is sent, as listDir's are; a folder of more than one chunk then sent chunk by
   * chunk as its entries are read (streamedAnswer.ts), where a smaller one is answered whole. In
   * protobuf's binary encoding (the IDE) or in JSON (the SDKs), both made from the chunks' bytes.
   */
  async function listDirStreamed(path: string, ctx: HandlerContext): Promise<ListDirResponse> {
    const listing = await listDirInChunks(path, rt.users)
    const first = await listing.chunks.next()
    const bytes = first.done ? Buffer.alloc(0) : first.value
    const binary = asksForBinary(ctx)
    if (listing.count <= entriesPerChunk) {
      await listing.chunks.return()
      return binary
        ? { ...create(ListDirResponseSchema), $unknown: asUnknownEntries(bytes) }
        : fromBinary(ListDirResponseSchema, bytes)
    }
    const body = answerBytes(bytes, listing.chunks)
    streamAnswer(ctx, binary ? body : answerJson(body))
    return create(ListDirResponseSchema)
  }

  const impl: ServiceImpl<typeof Filesystem> = {
    stat: async (req, ctx) => ({ entry: await statEntry(requestPath(req.path, ctx, rt), rt.users) }),
    makeDir: async (req, ctx) => ({
      entry: await makeDir(requestPath(req.path, ctx, rt), callingUser(ctx, rt), rt.users),
    }),
    move: async (req, ctx) => ({
      entry: await movePath(
        requestPath(req.source, ctx, rt),
        requestPath(req.destination, ctx, rt),
        callingUser(ctx, rt),
        rt.users,
      ),
    }),
    listDir: async (req, ctx) => {
      const path = requestPath(req.path, ctx, rt)
      if (req.depth <= 1 && readsInChunks && canStreamAnswer(ctx)) return listDirStreamed(path, ctx)
      const entries = await listDir(path, req.depth, rt.users)
      // A client that reads protobuf's binary encoding (the IDE) gets its entries encoded here,
      // ten times faster than toBinary would; the bytes are the same (listingBinary.ts).
      return asksForBinary(ctx)
        ? { ...create(ListDirResponseSchema), $unknown: preEncodedEntries(entries) }
        : { entries }
    },
    remove: async (req, ctx) => {
      await removePath(req.path, requestPath(req.path, ctx, rt))
      return {}
    },
    watchDir,
    createWatcher: async (req, ctx) => ({ watcherId: await registry.create(await watchSpec(req, ctx, rt)) }),
    getWatcherEvents: (req) => ({ events: registry.drain(req.watcherId) }),
    removeWatcher: (req) => {
      registry.remove(req.watcherId)
      return {}
    },
  }

  return {
    impl,
    dispose() {
      registry.dispose()
      for (const stream of streams) stream.dispose()
      streams.clear()
    },
  }
}
