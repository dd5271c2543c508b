import { request } from 'node:http'

/** One HTTP exchange with full control of the Host header (fetch does not allow setting it). */
export function rawRequest(options: {
  port: number
  /** Where to connect (default 127.0.0.1): another of this machine's addresses plays a remote client. */
  address?: string
  host?: string
  method?: string
  path: string
  headers?: Record<string, string>
  body?: string | Uint8Array
}): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: options.address ?? '127.0.0.1',
        port: options.port,
        method: options.method ?? 'GET',
        path: options.path,
        headers: { ...(options.host ? { host: options.host } : {}), ...options.headers },
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString(),
          }),
        )
      },
    )
    req.on('error', reject)
    req.end(options.body)
  })
}
