import type { Client } from '@connectrpc/connect'
import type { Filesystem } from '../gen/filesystem_pb'
import type { Process } from '../gen/process_pb'

/** Typed clients over a sandbox's runtime. */
export interface RuntimeClients {
  filesystem: Client<typeof Filesystem>
  process: Client<typeof Process>
}
