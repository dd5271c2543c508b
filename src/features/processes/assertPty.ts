import { create } from '@bufbuild/protobuf'
import type { Client } from '@connectrpc/connect'
import { type Process, ProcessSelectorSchema } from '../../gen/process_pb'

const nothing = new Uint8Array(0)

/**
 * Checks that a process has a PTY before a terminal attaches to it: List does not say, but the
 * runtime refuses PTY input to a process without one ("tty not assigned to process"), so empty
 * PTY input asks without typing anything. Throws the server's answer otherwise.
 */
export async function assertPty(
  client: Pick<Client<typeof Process>, 'sendInput'>,
  pid: number,
): Promise<void> {
  await client.sendInput({
    process: create(ProcessSelectorSchema, { selector: { case: 'pid', value: pid } }),
    input: { input: { case: 'pty', value: nothing } },
  })
}
