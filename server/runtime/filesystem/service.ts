import type { ServiceImpl } from '@connectrpc/connect'
import type { Filesystem } from '../../../src/gen/filesystem_pb'
import type { RuntimeContext } from '../context'

/** filesystem.Filesystem (placeholder until implemented). */
export function filesystemService(_rt: RuntimeContext): {
  impl: Partial<ServiceImpl<typeof Filesystem>>
  dispose(): void
} {
  return { impl: {}, dispose() {} }
}
