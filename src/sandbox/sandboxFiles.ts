import { create } from '@bufbuild/protobuf'
import { type RuntimeEndpoint, readFile, saveLink, uploadFile, writeFile } from '../api/files'
import { type EntryInfo, EntryInfoSchema, type FileType } from '../gen/filesystem_pb'
import type { RuntimeClients } from './runtimeClients'
import { isNotFound, mapped, notConnected } from './sandboxError'

// The vocabulary of files that features speak: the generated types, through this layer only.
export { type EntryInfo, EventType, FileType } from '../gen/filesystem_pb'

/** An entry made here rather than by the runtime (for tests); its modified time in whole seconds. */
export function fileEntry(init: {
  name?: string
  path?: string
  type?: FileType
  size?: bigint
  modifiedSeconds?: number
}): EntryInfo {
  const { modifiedSeconds, ...fields } = init
  return create(EntryInfoSchema, {
    ...fields,
    ...(modifiedSeconds === undefined
      ? {}
      : { modifiedTime: { seconds: BigInt(modifiedSeconds), nanos: 5 } }),
  })
}

/** A sandbox's files, as features use them; every failure is a SandboxError with the server's message. */
export interface SandboxFiles {
  /** The entry at `path`; a SandboxError of kind 'not-found' when there is none. */
  stat(path: string): Promise<EntryInfo>
  /** The entry at `path`, or undefined when there is none. */
  find(path: string): Promise<EntryInfo | undefined>
  /** What a folder holds, `depth` levels down (1: its children). */
  list(path: string, depth?: number, signal?: AbortSignal): Promise<EntryInfo[]>
  /** The sandbox user's home folder (what an empty path means to the runtime). */
  home(): Promise<string | undefined>
  read(path: string, signal?: AbortSignal): Promise<Uint8Array>
  /**
   * A short-lived link that saves the file to disk when the browser opens it, streamed there
   * (never held in the page); undefined where the runtime or the page cannot make one.
   */
  saveLink(path: string): Promise<string | undefined>
  /** Writes a whole file, creating its folders; the runtime renames it into place when complete. */
  write(path: string, data: Uint8Array<ArrayBuffer> | Blob): Promise<void>
  /** Uploads with progress; a cancel rejects with an AbortError and leaves nothing behind. */
  upload(
    path: string,
    file: Blob,
    onProgress: (sent: number, total: number) => void,
    signal: AbortSignal,
  ): Promise<void>
  makeDir(path: string): Promise<EntryInfo | undefined>
  move(from: string, to: string): Promise<EntryInfo | undefined>
  remove(path: string): Promise<void>
}

/** What SandboxFiles needs of a session: its clients and its runtime's address, once known. */
export interface FilesConnection {
  readonly clients: RuntimeClients | undefined
  readonly endpoint: RuntimeEndpoint | undefined
}

let listDirModule: Promise<typeof import('../api/listDir')> | undefined

/**
 * ListDir's hand-made decoder, out of the first page's script but fetched as soon as a session
 * is made, while the server is surely there: fetched only when first listing, it could be asked
 * for while the stack is down (a reconnect), and a browser keeps a failed import. A failed
 * fetch is tried again at the next listing.
 */
function listDirCode(): Promise<typeof import('../api/listDir')> {
  listDirModule ??= import('../api/listDir').catch((err: unknown) => {
    listDirModule = undefined
    throw err
  })
  return listDirModule
}

/** SandboxFiles over a session's runtime: /files for contents, the Filesystem service for the rest. */
export function sandboxFiles(connection: FilesConnection): SandboxFiles {
  void listDirCode().catch(() => {})
  const filesystem = () => {
    const clients = connection.clients
    if (!clients) throw notConnected()
    return clients.filesystem
  }
  const endpoint = () => {
    const e = connection.endpoint
    if (!e) throw notConnected()
    return e
  }
  const stat = (path: string) =>
    mapped(async () => {
      const { entry } = await filesystem().stat({ path })
      if (!entry) throw new Error(`the runtime described no entry for ${path}`)
      return entry
    })
  return {
    stat,
    find: (path) => stat(path).catch((err: unknown) => (isNotFound(err) ? undefined : Promise.reject(err))),
    list: (path, depth = 1, signal) =>
      mapped(async () => (await listDirCode()).listDir(endpoint(), { path, depth }, signal)),
    home: () => mapped(async () => (await filesystem().stat({ path: '' })).entry?.path),
    read: (path, signal) => mapped(() => readFile(endpoint(), path, signal)),
    saveLink: (path) => saveLink(endpoint(), path),
    write: (path, data) => mapped(() => writeFile(endpoint(), path, data)),
    upload: (path, file, onProgress, signal) =>
      mapped(() => uploadFile(endpoint(), path, file, onProgress, signal)),
    makeDir: (path) => mapped(async () => (await filesystem().makeDir({ path })).entry),
    move: (from, to) =>
      mapped(async () => (await filesystem().move({ source: from, destination: to })).entry),
    remove: (path) => mapped(async () => void (await filesystem().remove({ path }))),
  }
}
