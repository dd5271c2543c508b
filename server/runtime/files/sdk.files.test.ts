import { existsSync, linkSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  FileNotFoundError,
  FilesystemEventType,
  FileType,
  getSignature,
  InvalidArgumentError,
  type Sandbox,
  type FilesystemEvent as SdkFilesystemEvent,
} from 'e2b'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { startTestRuntime, type TestRuntime } from '../testing/runtimeFixture'
import { sdkSandbox } from '../testing/sdkSandbox'
import { fileSignature } from './signing'

describe('the official e2b SDK against the runtime: files', () => {
  let rt: TestRuntime
  let sbx: Sandbox
  const at = (...parts: string[]) => join(rt.home, ...parts)

  beforeAll(async () => {
    rt = await startTestRuntime()
    sbx = sdkSandbox(rt)
  })
  afterAll(() => rt.close())

  it('writes and reads text, bytes, blobs and streams', async () => {
    const info = await sbx.files.write('notes/hello.txt', 'hello from the SDK')
    expect(info).toMatchObject({ name: 'hello.txt', path: at('notes', 'hello.txt'), type: 'file' })
    expect(await sbx.files.read('notes/hello.txt')).toBe('hello from the SDK')
    const bytes = new Uint8Array([0, 1, 2, 250, 255])
    await sbx.files.write(at('bin', 'data.bin'), bytes.buffer)
    expect(await sbx.files.read('bin/data.bin', { format: 'bytes' })).toEqual(bytes)
    expect(await (await sbx.files.read('bin/data.bin', { format: 'blob' })).arrayBuffer()).toEqual(
      bytes.buffer,
    )
    const stream = await sbx.files.read('notes/hello.txt', { format: 'stream' })
    let text = ''
    for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>)
      text += new TextDecoder().decode(chunk)
    expect(text).toBe('hello from the SDK')
  })

  it('reads an empty file as an empty string', async () => {
    writeFileSync(at('empty.txt'), '')
    expect(await sbx.files.read('empty.txt')).toBe('')
    expect(await sbx.files.read('empty.txt', { gzip: true })).toBe('')
  })

  it('writes several files in one multipart request', async () => {
    const written = await sbx.files.write([
      { path: 'multi/a.txt', data: 'A' },
      { path: at('multi', 'deep', 'b.txt'), data: new Blob(['B']) },
    ])
    expect(written).toHaveLength(2)
    expect(readFileSync(at('multi', 'a.txt'), 'utf8')).toBe('A')
    expect(readFileSync(at('multi', 'deep', 'b.txt'), 'utf8')).toBe('B')
  })

  it('writes with octet-stream, gzip and metadata, which getInfo then shows', async () => {
    await sbx.files.write('octet.txt', 'raw body', { useOctetStream: true })
    expect(readFileSync(at('octet.txt'), 'utf8')).toBe('raw body')
    await sbx.files.write('zipped.txt', 'x'.repeat(10_000), { gzip: true })
    expect(statSync(at('zipped.txt')).size).toBe(10_000)
    expect(await sbx.files.read('zipped.txt', { gzip: true })).toBe('x'.repeat(10_000))
    const written = await sbx.files.write('tagged.txt', 'x', { metadata: { owner: 'alice', stage: 'draft' } })
    expect(written.metadata).toEqual({ owner: 'alice', stage: 'draft' })
    const info = await sbx.files.getInfo('tagged.txt')
    expect(info.metadata).toEqual({ owner: 'alice', stage: 'draft' })
  })

  it('lists, makes, renames, removes and checks existence', async () => {
    expect(await sbx.files.makeDir('proj/src')).toBe(true)
    expect(await sbx.files.makeDir('proj/src')).toBe(false)
    await sbx.files.write('proj/src/main.ts', 'export {}\n')
    symlinkSync('nowhere', at('proj', 'dangling'))
    const entries = await sbx.files.list('proj', { depth: 2 })
    // The SDK drops UNSPECIFIED entries such as the broken link.
    expect(entries.map((e) => [e.name, e.type])).toEqual([
      ['src', FileType.DIR],
      ['main.ts', FileType.FILE],
    ])
    const renamed = await sbx.files.rename('proj/src/main.ts', 'proj/src/index.ts')
    expect(renamed).toMatchObject({ name: 'index.ts', type: FileType.FILE, size: 10 })
    expect(await sbx.files.exists('proj/src/main.ts')).toBe(false)
    expect(await sbx.files.exists('proj/src/index.ts')).toBe(true)
    await sbx.files.remove('proj')
    expect(existsSync(at('proj'))).toBe(false)
    await expect(sbx.files.list('proj/src', { depth: 0 })).rejects.toBeInstanceOf(InvalidArgumentError)
  })

  it('describes an entry with getInfo', async () => {
    await sbx.files.write('info.txt', '12345')
    const info = await sbx.files.getInfo('info.txt')
    expect(info).toMatchObject({
      name: 'info.txt',
      type: FileType.FILE,
      path: at('info.txt'),
      size: 5,
      mode: 0o644,
      permissions: '-rw-r--r--',
    })
    expect(info.modifiedTime).toBeInstanceOf(Date)
    expect(Math.abs((info.modifiedTime?.getTime() ?? 0) - statSync(at('info.txt')).mtimeMs)).toBeLessThan(1)
  })

  it('maps missing files to FileNotFoundError', async () => {
    await expect(sbx.files.read('missing.txt')).rejects.toBeInstanceOf(FileNotFoundError)
    await expect(sbx.files.getInfo('missing.txt')).rejects.toBeInstanceOf(FileNotFoundError)
    await expect(sbx.files.rename('missing.txt', 'x.txt')).rejects.toBeInstanceOf(FileNotFoundError)
  })

  it('watches recursively, including inside directories created after the watch began', async () => {
    await sbx.files.makeDir('watched')
    const events: SdkFilesystemEvent[] = []
    const handle = await sbx.files.watchDir('watched', (e) => void events.push(e), {
      recursive: true,
      includeEntry: true,
      timeoutMs: 0,
    })
    try {
      await sbx.files.write('watched/new/deeper/file.txt', 'content')
      await sbx.files.rename('watched/new/deeper/file.txt', 'watched/new/deeper/renamed.txt')
      await sbx.files.remove('watched/new/deeper/renamed.txt')
      await vi.waitFor(
        () =>
          expect(
            events.some((e) => e.name === 'new/deeper/renamed.txt' && e.type === FilesystemEventType.REMOVE),
          ).toBe(true),
        { timeout: 10_000, interval: 20 },
      )
      const summary = events.map((e) => `${e.type} ${e.name}`)
      expect(summary).toContain('create new')
      expect(summary).toContain('create new/deeper')
      expect(summary).toContain('create new/deeper/file.txt')
      expect(summary).toContain('write new/deeper/file.txt')
      expect(summary).toContain('rename new/deeper/file.txt')
      expect(summary).toContain('create new/deeper/renamed.txt')
      expect(summary.every((line) => !line.includes('.e2b-upload-'))).toBe(true)
      const created = events.find((e) => e.name === 'new/deeper/file.txt')
      expect(created?.entry).toMatchObject({
        name: 'file.txt',
        path: at('watched', 'new', 'deeper', 'file.txt'),
      })
    } finally {
      await handle.stop()
    }
  })

  it('writes an upload in place: the same inode, hard links see it, watchers see WRITE', async () => {
    await sbx.files.write('inplace/a.txt', 'first')
    linkSync(at('inplace', 'a.txt'), at('inplace', 'link.txt'))
    const inode = statSync(at('inplace', 'a.txt')).ino
    const events: SdkFilesystemEvent[] = []
    const handle = await sbx.files.watchDir('inplace', (e) => void events.push(e), { timeoutMs: 0 })
    try {
      await sbx.files.write('inplace/a.txt', 'second, longer')
      await vi.waitFor(() => expect(events.map((e) => `${e.type} ${e.name}`)).toContain('write a.txt'), {
        timeout: 10_000,
        interval: 20,
      })
      // The same file changed (envd's chown adds CHMOD): nothing made or removed.
      const kinds = new Set(events.map((e) => e.type))
      expect(
        [...kinds].filter((k) => k !== FilesystemEventType.WRITE && k !== FilesystemEventType.CHMOD),
      ).toEqual([])
    } finally {
      await handle.stop()
    }
    expect(statSync(at('inplace', 'a.txt')).ino).toBe(inode)
    expect(readFileSync(at('inplace', 'link.txt'), 'utf8')).toBe('second, longer')
  })

  it('uploads and downloads through signed URLs, used as E2B’s docs show them', async () => {
    const form = new FormData()
    form.append('file', 'file content')
    const res = await fetch(await sbx.uploadUrl('signed/doc.txt'), { method: 'POST', body: form })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual([{ path: at('signed', 'doc.txt'), name: 'doc.txt', type: 'file' }])
    const download = await fetch(await sbx.downloadUrl('signed/doc.txt', { useSignatureExpiration: 60 }))
    expect(await download.text()).toBe('file content')
    const forged = new URL(await sbx.downloadUrl('signed/doc.txt'))
    forged.searchParams.set('path', 'signed/other.txt')
    expect(await (await fetch(forged)).json()).toEqual({ code: 401, message: 'invalid signature' })
  })

  it('produces signatures the runtime accepts, identical to ours', async () => {
    const token = rt.token ?? ''
    const sdk = await getSignature({
      path: 'notes/hello.txt',
      operation: 'read',
      user: undefined,
      envdAccessToken: token,
    })
    expect(sdk.signature).toBe(fileSignature('notes/hello.txt', 'read', '', token))
    const download = await fetch(await sbx.downloadUrl('notes/hello.txt', { useSignatureExpiration: 60 }))
    expect(download.status).toBe(200)
    expect(await download.text()).toBe('hello from the SDK')
    const form = new FormData()
    form.append('file', new Blob(['uploaded via signed URL']), 'signed.txt')
    const upload = await fetch(await sbx.uploadUrl('signed.txt'), { method: 'POST', body: form })
    expect(upload.status).toBe(200)
    expect(readFileSync(at('signed.txt'), 'utf8')).toBe('uploaded via signed URL')
  })
})
