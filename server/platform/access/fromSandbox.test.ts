// Code inside a sandbox, with curl and with Node's fetch, forging every header a browser would
// send, must get nothing from the IDE API or the embed demo's session: no list, no token, no new
// sandbox. In a network of its own it cannot even connect; sharing the host's loopback (no
// bubblewrap), the credentials stop it. Commands run through the official SDK.
import { Sandbox } from 'e2b'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ideCall } from '../testing/ideCall'
import { startTestPlatform, type TestPlatform } from '../testing/platformFixture'
import { pointSdkAt } from '../testing/sdkEnv'

describe('the IDE API seen from inside a sandbox', () => {
  let tp: TestPlatform
  let attacker: Sandbox
  let victimId: string
  let restoreEnv = () => {}

  beforeAll(async () => {
    tp = await startTestPlatform()
    restoreEnv = pointSdkAt(tp)
    const victim = await ideCall(tp.platform, 'POST', '/sandboxes', {})
    expect(victim.status).toBe(201)
    victimId = victim.json.sandboxId
    attacker = await Sandbox.create()
  }, 60_000)
  afterAll(async () => {
    restoreEnv()
    await tp?.close()
  })

  /**
   * What a sandbox may get: 401 or 403 where it shares the host's loopback; where it has a
   * network of its own, not even a connection (curl's 000, Node's error).
   */
  const refusals = () => (tp.platform.launcher.network === 'host' ? ['401', '403'] : ['000', 'error'])

  /** Every route that hands out a token or changes state, as `method path [json body]`. */
  const routes = () => [
    'GET /ide/api/stack',
    'GET /ide/api/sandboxes',
    'GET /ide/api/templates',
    'POST /ide/api/sandboxes {}',
    `GET /ide/api/sandboxes/${victimId}/session`,
    `POST /ide/api/sandboxes/${victimId}/pause`,
    `POST /ide/api/sandboxes/${victimId}/timeout {"seconds":1}`,
    `DELETE /ide/api/sandboxes/${victimId}`,
    'GET /ide/api/remotes',
    'POST /ide/api/remotes {"apiKey":"k"}',
    `GET /ide/api/remotes/${'0'.repeat(16)}/sandboxes/${victimId}/session`,
    'POST /ide/api/auth {"token":"guess"}',
    'GET /session demo',
  ]

  it('gets 401 or 403 from every route with curl, every browser header forged', async () => {
    const port = tp.platform.port
    const lines = routes().map((route) => {
      const [method, path, extra] = route.split(' ')
      const host = extra === 'demo' ? `embed-demo.localhost:${port}` : `127.0.0.1:${port}`
      const body = extra && extra !== 'demo' ? `-H 'Content-Type: application/json' --data '${extra}'` : ''
      return [
        `curl -s -o /dev/null -w '%{http_code} ${method} ${path}\\n' -X ${method} ${body}`,
        `-H 'Host: ${host}' -H 'Origin: http://${host}' -H 'Referer: http://${host}/'`,
        `-H 'Sec-Fetch-Site: same-origin' -H 'Sec-Fetch-Mode: cors' -H 'X-Sandbox-IDE: 1'`,
        `-H 'X-Sandbox-IDE-Key: guess' -H 'Cookie: sandbox_ide_${port}=guess'`,
        `http://127.0.0.1:${port}${path}`,
      ].join(' ')
    })
    const run = await attacker.commands.run(`${lines.join('\n')}\ntrue`)
    const answers = run.stdout.trim().split('\n')
    expect(answers).toHaveLength(routes().length)
    for (const answer of answers) expect(refusals(), answer).toContain(answer.split(' ')[0])
  })

  it("gets 401 or 403 with Node's fetch too, and cannot read the token from the data folder", async () => {
    const port = tp.platform.port
    // node:http, not fetch: fetch may not set Host, and the demo's host needs it.
    const script = `
      import { request } from 'node:http'
      const routes = ${JSON.stringify(routes())}
      const call = (method, path, host, body) => new Promise((resolve) => {
        const req = request({ host: '127.0.0.1', port: ${port}, method, path, headers: {
          Host: host,
          'Sec-Fetch-Site': 'same-origin',
          'X-Sandbox-IDE': '1',
          'X-Sandbox-IDE-Key': 'guess',
          Cookie: 'sandbox_ide_${port}=guess',
          Authorization: 'Bearer guess',
          'Content-Type': 'application/json',
        } }, (res) => { res.resume(); resolve(res.statusCode) })
        req.on('error', (err) => resolve('error ' + err.message))
        req.end(body)
      })
      for (const route of routes) {
        const [method, path, extra] = route.split(' ')
        const demo = extra === 'demo'
        const host = (demo ? 'embed-demo.localhost' : '127.0.0.1') + ':${port}'
        console.log((await call(method, path, host, demo ? undefined : extra)) + ' ' + method + ' ' + path)
      }
      // And the same-origin browser fetch a page would make, as far as fetch lets a program forge it.
      const res = await fetch('http://127.0.0.1:${port}/ide/api/sandboxes', {
        headers: { 'X-Sandbox-IDE': '1', 'Sec-Fetch-Site': 'same-origin', Origin: 'http://127.0.0.1:${port}' },
      }).catch((err) => ({ status: 'error' }))
      console.log(res.status + ' fetch /ide/api/sandboxes')`
    await attacker.files.write('/tmp/probe.mjs', script)
    const run = await attacker.commands.run('node /tmp/probe.mjs')
    const answers = run.stdout.trim().split('\n')
    expect(answers).toHaveLength(routes().length + 1)
    for (const answer of answers) expect(refusals(), answer).toContain(answer.split(' ')[0])
    const look = await attacker.commands.run(`cat ${tp.dataDir}/ide-token ${tp.dataDir}/api-key 2>&1; true`)
    expect(look.stdout).toContain('No such file or directory')
    expect(look.stdout).not.toContain(tp.platform.ideToken.current())
  })

  it('changed nothing: the same two sandboxes, both running, no remote', async () => {
    const listed = await ideCall(tp.platform, 'GET', '/sandboxes')
    expect(listed.json.map((s: { sandboxId: string }) => s.sandboxId).sort()).toEqual(
      [victimId, attacker.sandboxId].sort(),
    )
    expect(listed.json.every((s: { state: string }) => s.state === 'running')).toBe(true)
    expect((await ideCall(tp.platform, 'GET', '/remotes')).json).toEqual([])
  })
})
