import { create, toBinary } from '@bufbuild/protobuf'
import { TimestampSchema } from '@bufbuild/protobuf/wkt'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { EntryInfoSchema, FileType, ListDirResponseSchema } from '../../../src/gen/filesystem_pb'
import { preEncodedEntries } from './listingBinary'

const entryInfo = fc
  .record(
    {
      name: fc.string({ unit: 'grapheme' }),
      type: fc.constantFrom(FileType.UNSPECIFIED, FileType.FILE, FileType.DIRECTORY, FileType.SYMLINK),
      path: fc.string({ unit: 'binary' }),
      size: fc.oneof(
        fc.bigInt({ min: 0n, max: 1n << 40n }),
        fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
      ),
      mode: fc.integer({ min: 0, max: 0xffffffff }),
      permissions: fc.string(),
      owner: fc.string(),
      group: fc.string(),
      modifiedTime: fc.option(
        fc.record({
          seconds: fc.bigInt({ min: -62135596800n, max: 253402300799n }),
          nanos: fc.nat(999_999_999),
        }),
        { nil: undefined },
      ),
      symlinkTarget: fc.option(fc.string(), { nil: undefined }),
      metadata: fc.dictionary(fc.string(), fc.string({ unit: 'grapheme' })),
    },
    { requiredKeys: ['name', 'type', 'path', 'size', 'mode', 'permissions', 'owner', 'group', 'metadata'] },
  )
  .map(({ modifiedTime, ...fields }) =>
    create(EntryInfoSchema, {
      ...fields,
      ...(modifiedTime ? { modifiedTime: create(TimestampSchema, modifiedTime) } : {}),
    }),
  )

describe('preEncodedEntries', () => {
  it('makes the bytes toBinary makes of the same listing', () => {
    fc.assert(
      fc.property(fc.array(entryInfo, { maxLength: 20 }), (entries) => {
        const expected = toBinary(ListDirResponseSchema, create(ListDirResponseSchema, { entries }))
        const written = toBinary(ListDirResponseSchema, {
          ...create(ListDirResponseSchema),
          $unknown: preEncodedEntries(entries),
        })
        expect(Buffer.from(written).equals(Buffer.from(expected))).toBe(true)
      }),
      { numRuns: 1000 },
    )
  })

  it('writes an entry of nothing but defaults as an empty message, and a zero time as one', () => {
    const empty = create(EntryInfoSchema)
    const epoch = create(EntryInfoSchema, { modifiedTime: create(TimestampSchema) })
    const bytes = (entries: (typeof empty)[]) =>
      toBinary(ListDirResponseSchema, {
        ...create(ListDirResponseSchema),
        $unknown: preEncodedEntries(entries),
      })
    expect([...bytes([empty])]).toEqual([0x0a, 0x00])
    expect([...bytes([epoch])]).toEqual([0x0a, 0x02, 0x4a, 0x00])
  })
})
