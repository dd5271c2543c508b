import { mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir, userInfo } from 'node:os'
import { join } from 'node:path'
import { type Client, createClient } from '@connectrpc/connect'
import { createConnectTransport } from '@connectrpc/connect-node'
import { Filesystem } from '../../../src/gen/filesystem_pb'
import { Process } from '../../../src/gen/process_pb'
import type { RuntimeOptions } from '../options'
import { type RunningRuntime, startRuntime } from '../server'

/** A real runtime on a free loopback port with a fresh home folder, for protocol tests. */
export interface TestRuntime {
  runtime: RunningRuntime
  url: string
  /** The default user's home: a fresh temporary folder, removed by `close`. */
  home: string
  token: string | undefined
  /** Generated Connect clients over HTTP/1.1 with the access token set. */
  fs: Client<typeof Filesystem>
  proc: Client<typeof Process>
  /** Headers a raw call needs (the access token). */
  auth: Record<string, string>
  close(): Promise<void>
}

/** Starts a runtime for a test; pass `token: undefined` explicitly for a runtime without auth. */
export async function startTestRuntime(
  overrides: Partial<RuntimeOptions> & { token?: string | undefined } = {},
): Promise<TestRuntime> {
  const home = realpathSync(mkdtempSync(join(tmpdir(), 'runtime-home-')))
  const token = 'token' in overrides ? overrides.token : 'test-token'
  const runtime = await startRuntime({
    port: 0,
    host: '127.0.0.1',
    defaultUser: userInfo().username,
    home,
    envVars: {},
    ...overrides,
    ...(token ? { accessToken: token } : {}),
  })
  const auth: Record<string, string> = token ? { 'X-Access-Token': token } : {}
  const transport = createConnectTransport({
    baseUrl: runtime.url,
    httpVersion: '1.1',
    interceptors: [
      (next) => (req) => {
        for (const [k, v] of Object.entries(auth)) req.header.set(k, v)
        return next(req)
      },
    ],
  })
  return {
    runtime,
    url: runtime.url,
    home,
    token,
    auth,
    fs: createClient(Filesystem, transport),
    proc: createClient(Process, transport),
    close: async () => {
      await runtime.close()
      rmSync(home, { recursive: true, force: true })
    },
  }
}
