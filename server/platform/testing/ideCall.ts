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
 * Calls a platform's IDE API as the IDE's page does: on `localhost:{port}`, same-origin, with
 * the X-Sandbox-IDE header and a JSON body when given. `headers` may override any of them.
 */
export async function ideCall(
  port: number,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<IdeAnswer> {
  const res = await rawRequest({
    port,
    host: headers.Host ?? `localhost:${port}`,
    method,
    path: `/ide/api${path}`,
    headers: {
      'X-Sandbox-IDE': '1',
      'Sec-Fetch-Site': 'same-origin',
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...Object.fromEntries(Object.entries(headers).filter(([name]) => name !== 'Host')),
    },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  })
  let json: unknown
  try {
    json = JSON.parse(res.text)
  } catch {}
  return { ...res, json }
}
