// Each sandbox is a machine of its own on the network: its own loopback and ports, reachable at
// {port}-{sandboxId} through the router (HTTP and upgrades alike), and nothing of the host's:
// not the platform, not the host's loopback services, not another sandbox. Through the SDK.
import { request } from 'node:http'
import { createServer, type Server } from 'node:net'
import { Sandbox } from 'e2b'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestPlatform, type TestPlatform } from './testing/platformFixture'
import { pointSdkAt } from './testing/sdkEnv'

/** A small web server in a sandbox on `port`, serving `text` at /. */
async function serve(sandbox: Sandbox, port: number, text: string): Promise<void> {
  await sandbox.files.write(`site-${port}/index.html`, text)
  await sandbox.commands.run(`cd ~/site-${port} && exec python3 -m http.server ${port} --bind 127.0.0.1`, {
    background: true,
    timeoutMs: 0,
  })
  // Ready once it answers inside the sandbox.
  await sandbox.commands.run(
    `for i in $(seq 100); do curl -sf -o /dev/null http://127.0.0.1:${port}/ && exit 0; sleep 0.05; done; exit 1`,
  )
}

describe('sandboxes as machines on a network', () => {
  let tp: TestPlatform
  let a: Sandbox
  let b: Sandbox
  let hostService: Server
  let hostServicePort: number
  let restoreEnv = () => {}

  /** GET `path` of `port` in a sandbox through the router, by host name as a browser would. */
  const viaRouter = (id: string, port: number, path = '/') =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port: tp.platform.port, path, headers: { Host: `${port}-${id}.localhost` } },
        (res) => {
          let body = ''
          res.setEncoding('utf8')
          res.on('data', (chunk) => {
            body += chunk
          })
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
        },
      )
      req.on('error', reject)
      req.end()
    })

  beforeAll(async () => {
    tp = await startTestPlatform()
    restoreEnv = pointSdkAt(tp)
    ;[a, b] = await Promise.all([Sandbox.create(), Sandbox.create()])
    hostService = createServer((socket) => socket.end('host secret\n'))
    await new Promise<void>((resolve) => hostService.listen(0, '127.0.0.1', resolve))
    const address = hostService.address()
    hostServicePort = typeof address === 'object' && address ? address.port : 0
  }, 60_000)
  afterAll(async () => {
    restoreEnv()
    hostService?.close()
    await tp?.close()
  })

  it('runs with a network of its own where bubblewrap does', () => {
    if (tp.platform.launcher.isolation === 'bubblewrap') expect(tp.platform.launcher.network).not.toBe('host')
  })

  it('lets two sandboxes serve on the same port, each at its own host name', async () => {
    if (tp.platform.launcher.network === 'host') return
    await Promise.all([serve(a, 8000, 'this is A'), serve(b, 8000, 'this is B')])
    expect(await viaRouter(a.sandboxId, 8000)).toEqual({ status: 200, body: 'this is A' })
    expect(await viaRouter(b.sandboxId, 8000)).toEqual({ status: 200, body: 'this is B' })
    expect(await viaRouter(a.sandboxId, 8000, '/missing')).toMatchObject({ status: 404 })
    const closed = await viaRouter(a.sandboxId, 8001)
    expect(closed.status).toBe(502)
    expect(JSON.parse(closed.body)).toEqual({
      sandboxId: a.sandboxId,
      message: 'The sandbox is running but port is not open',
      port: 8001,
      code: 502,
    })
  })

  it('keeps the platform, the host’s loopback and the other sandbox out of reach', async () => {
    if (tp.platform.launcher.network === 'host') return
    const gateway = (await a.commands.run("ip route | awk '/^default/ {print $3}'")).stdout.trim()
    const probe = (url: string) => `curl -s -m 3 -o /dev/null -w '%{http_code}' ${url}; echo " $?"`
    const tries = [
      `http://127.0.0.1:${tp.platform.port}/health`,
      `http://127.0.0.1:${hostServicePort}/`,
      ...(gateway ? [`http://${gateway}:${tp.platform.port}/`, `http://${gateway}:${hostServicePort}/`] : []),
    ]
    const runs = await Promise.all(tries.map((url) => a.commands.run(probe(url))))
    for (const [i, run] of runs.entries()) {
      // 000 and a curl error: no connection at all (7 refused, 28 timed out).
      expect(run.stdout.trim(), tries[i]).toMatch(/^000 (7|28)$/)
    }
    // Its own port 8000 is its own server, never B's.
    expect((await a.commands.run('curl -s http://127.0.0.1:8000/')).stdout).toBe('this is A')
  })

  it('reaches the outside world for packages when slirp4netns is there', async () => {
    if (tp.platform.launcher.network !== 'own') return
    const run = await a.commands.run(
      'curl -s -m 20 -o /dev/null -w \'%{http_code}\' https://registry.npmjs.org/; echo " $?"',
    )
    expect(run.stdout.trim()).toMatch(/^(200|301|302) 0$/)
  })

  it('carries an upgraded connection (a WebSocket) both ways through the router', async () => {
    if (tp.platform.launcher.network === 'host') return
    // A server that accepts any upgrade, then echoes every byte: the router's part, without framing.
    await a.files.write(
      'echo-upgrade.mjs',
      `import { createServer } from 'node:http'
const server = createServer((req, res) => res.end('plain'))
server.on('upgrade', (req, socket) => {
  socket.write('HTTP/1.1 101 Switching Protocols\\r\\nUpgrade: echo\\r\\nConnection: Upgrade\\r\\nX-Seen-Host: ' + req.headers.host + '\\r\\n\\r\\n')
  socket.pipe(socket)
})
server.listen(9000, '127.0.0.1')`,
    )
    await a.commands.run('node ~/echo-upgrade.mjs', { background: true, timeoutMs: 0 })
    await a.commands.run(
      'for i in $(seq 100); do curl -sf -o /dev/null http://127.0.0.1:9000/ && exit 0; sleep 0.05; done; exit 1',
    )
    const host = `9000-${a.sandboxId}.localhost`
    const echoed = await new Promise<{ status: number; seenHost: unknown; back: string }>(
      (resolve, reject) => {
        const req = request({
          host: '127.0.0.1',
          port: tp.platform.port,
          headers: { Host: host, Connection: 'Upgrade', Upgrade: 'echo' },
        })
        req.on('upgrade', (res, socket) => {
          let back = ''
          socket.on('data', (chunk) => {
            back += chunk
            if (back.length >= 11) {
              socket.destroy()
              resolve({ status: res.statusCode ?? 0, seenHost: res.headers['x-seen-host'], back })
            }
          })
          socket.write('hello there')
        })
        req.on('error', reject)
        req.end()
      },
    )
    expect(echoed).toEqual({ status: 101, seenHost: host, back: 'hello there' })
  })
})
