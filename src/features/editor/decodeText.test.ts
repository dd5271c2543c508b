import { describe, expect, it } from 'vitest'
import { contentHash } from './contentHash'
import { decodeText, encodeText } from './decodeText'
import { fileTier, formatSize } from './fileLimits'
import { movedPath } from './movedPath'

describe('decodeText', () => {
  it('round-trips UTF-8 text, byte-order mark and CRLF included', () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...encodeText('ünï\r\nline "<script>"\n')])
    const text = decodeText(bytes)
    expect(text).toBeDefined()
    expect(encodeText(text ?? '')).toEqual(bytes)
  })

  it('calls NUL bytes and invalid UTF-8 binary', () => {
    expect(decodeText(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x00]))).toBeUndefined()
    expect(decodeText(new Uint8Array([0x61, 0xff, 0x62]))).toBeUndefined()
  })
})

describe('contentHash', () => {
  it('tells contents apart and is stable', () => {
    expect(contentHash(encodeText('abc'))).toBe(contentHash(encodeText('abc')))
    expect(contentHash(encodeText('abc'))).not.toBe(contentHash(encodeText('abd')))
    expect(contentHash(encodeText('ab'))).not.toBe(contentHash(encodeText('ba')))
  })
})

describe('fileTier and formatSize', () => {
  it('opens up to 5 MB fully, up to 50 MB reduced, and offers bigger files for download', () => {
    expect(fileTier(5 * 1024 * 1024)).toBe('full')
    expect(fileTier(5 * 1024 * 1024 + 1)).toBe('reduced')
    expect(fileTier(50 * 1024 * 1024 + 1)).toBe('download-only')
    expect(formatSize(512)).toBe('512 B')
    expect(formatSize(6 * 1024 * 1024)).toBe('6.0 MB')
  })
})

describe('movedPath', () => {
  it('moves the file itself and everything under a moved folder, nothing else', () => {
    expect(movedPath('/h/a.txt', '/h/a.txt', '/h/b.txt')).toBe('/h/b.txt')
    expect(movedPath('/h/src/x.ts', '/h/src', '/h/lib')).toBe('/h/lib/x.ts')
    expect(movedPath('/h/srcx/x.ts', '/h/src', '/h/lib')).toBeUndefined()
  })
})
