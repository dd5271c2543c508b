import type { RunningPlatform } from '../platformServer'
import { rawRequest } from './rawHttp'

/** One answer of the IDE API, its body parsed when it is JSON. */
export interface IdeAnswer {
  status: number
  headers: Record<string, string | string[] | undefined>
  text: string
  // biome-ignore lint/suspicious/noExplicitAny: tests read whichever fields they assert on
  json: any
}

/**
 * Calls a platform's IDE API as a signed-in tool does: on `localhost:{port}`, same-origin, with
 * the X-Sandbox-IDE header, the IDE token as a bearer credential and a JSON body when given.
 * `headers` may override any of them; one given as an empty string is left out.
 */
export async function ideCall(
  platform: Pick<RunningPlatform, 'port' | 'ideToken'>,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<IdeAnswer> {
  const { port } = platform
  const all: Record<string, string> = {
    'X-Sandbox-IDE': '1',
    'Sec-Fetch-Site': 'same-origin',
    Authorization: `Bearer ${platform.ideToken.current()}`,
    ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    ...headers,
  }
  const res = await rawRequest({
    port,
    host: all.Host ?? `localhost:${port}`,
    method,
    path: `/ide/api${path}`,
    headers: Object.fromEntries(
      Object.entries(all).filter(([name, value]) => name !== 'Host' && value !== ''),
    ),
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  })
  let json: unknown
  try {
    json = JSON.parse(res.text)
  } catch {}
  return { ...res, json }
}
