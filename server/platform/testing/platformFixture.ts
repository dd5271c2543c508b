import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { PlatformConfig } from '../../config'
import { type RunningPlatform, startPlatform } from '../platformServer'

const projectRoot = join(import.meta.dirname, '..', '..', '..')

/** A real platform on a free loopback port with a fresh data folder, for tests. */
export interface TestPlatform {
  platform: RunningPlatform
  url: string
  dataDir: string
  apiKey: string
  /** Calls the platform API with the key (JSON body when given). */
  api(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Response>
  /** Creates a sandbox through the API (`POST /v2/sandboxes`); its id and runtime token. */
  createSandbox(body?: Record<string, unknown>): Promise<{ sandboxID: string; envdAccessToken: string }>
  /** Stops the platform; `keepData` leaves the data folder for a restart. */
  close(options?: { keepData?: boolean }): Promise<void>
}

/**
 * Starts a platform for a test, on `dataDir` when given (to test restarts); `log` receives its
 * log lines.
 */
export async function startTestPlatform(
  overrides: Partial<PlatformConfig> = {},
  { log = () => {} }: { log?: (line: string) => void } = {},
): Promise<TestPlatform> {
  const dataDir = overrides.dataDir ?? mkdtempSync(join(tmpdir(), 'platform-data-'))
  const apiKey = overrides.apiKey ?? 'test-api-key'
  const platform = await startPlatform(
    {
      port: 0,
      host: '127.0.0.1',
      dataDir,
      apiKey,
      maxSandboxes: 10,
      sandboxTimeout: 300,
      defaultSandboxTimeout: 3600,
      defaultSandbox: false,
      isolation: 'auto',
      ...overrides,
    },
    { projectRoot, log },
  )
  // On its loopback address even with a --domain, which the test machine cannot resolve.
  const url = overrides.domain ? `http://127.0.0.1:${platform.port}` : platform.url
  const api: TestPlatform['api'] = (method, path, body, headers = {}) =>
    fetch(`${url}${path}`, {
      method,
      headers: {
        'X-API-Key': apiKey,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...headers,
      },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    })
  return {
    platform,
    url,
    dataDir,
    apiKey,
    api,
    async createSandbox(body = {}) {
      const res = await api('POST', '/v2/sandboxes', body)
      if (res.status !== 201) throw new Error(`creating a sandbox: ${res.status} ${await res.text()}`)
      return (await res.json()) as { sandboxID: string; envdAccessToken: string }
    },
    close: async ({ keepData = false } = {}) => {
      await platform.close()
      if (!keepData) rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
