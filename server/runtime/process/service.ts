import type { ServiceImpl } from '@connectrpc/connect'
import type { Process } from '../../../src/gen/process_pb'
import type { RuntimeContext } from '../context'

/** process.Process (placeholder until implemented). */
export function processService(_rt: RuntimeContext): {
  impl: Partial<ServiceImpl<typeof Process>>
  dispose(): void
} {
  return { impl: {}, dispose() {} }
}
