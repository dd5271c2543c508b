// A class with E2B behind it, for real and without internet: a second platform plays E2B. The
// teacher's stack keeps E2B's key, makes the class there (npm run class's code), hands out join
// links, and runs the dashboard against E2B's API and the sandboxes' own runtimes; a student's
// link opens their own E2B sandbox (its runtime URL and token, to call directly) and nothing else.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  addRemote,
  endClass,
  listClass,
  type PlatformAccess,
  relinkStudent,
  type StudentSandbox,
} from '../../class/classroom'
import { browserCall as callAsBrowser } from '../testing/browserCall'
import { ideCall } from '../testing/ideCall'
import { startTestPlatform, type TestPlatform } from '../testing/platformFixture'
import { rawRequest } from '../testing/rawHttp'
import { startTestClass } from '../testing/testClass'
import { sandboxCommands } from './sandboxCommands'

const cloudKey = 'e2b_cloud_key_for_the_class_0123'
const solved = `def average(numbers):\n    return sum(numbers) / len(numbers) if numbers else 0\n`

describe('a class with E2B behind it', () => {
  let cloud: TestPlatform
  let stack: TestPlatform
  let remoteId: string
  let access: PlatformAccess
  let students: StudentSandbox[]
  const byName = (name: string) => students.find((s) => s.student === name) as StudentSandbox
  const classPath = (rest = '') => `/remotes/${remoteId}/classes/monday${rest}`
  const view = async () => (await ideCall(stack.platform, 'GET', classPath())).json
  // biome-ignore lint/suspicious/noExplicitAny: rows as the JSON answer has them
  const row = (rows: any[], name: string): any => rows.find((r) => r.student === name)

  /** A browser's call to the teacher's stack, as a page sends it. */
  const browserCall = (method: string, path: string, headers: Record<string, string> = {}, body?: unknown) =>
    callAsBrowser({ port: stack.platform.port, host: `127.0.0.1:${stack.platform.port}` }, method, path, {
      headers,
      body,
    })

  /** A student opens their link: the headers their page then sends. */
  const join = async (link: string) => {
    const token = new URL(link).hash.replace('#token=', '')
    const res = await browserCall('POST', '/join', {}, { token })
    expect(res.status, res.text).toBe(200)
    const cookie = String(res.headers['set-cookie']).split(';')[0] as string
    return { answer: res.json, headers: { Cookie: cookie, 'X-Sandbox-IDE-Key': res.json.pageKey as string } }
  }

  /** The cloud's own view of a sandbox, as E2B's API gives it. */
  const inCloud = async (id: string) => (await cloud.api('GET', `/sandboxes/${id}`)).json()

  /** Runs a script in a sandbox through its runtime on the cloud, as a student's browser would reach it. */
  const inSandbox = async (id: string, script: string) => {
    const detail = await inCloud(id)
    const runtimeUrl = `http://49983-${id}.localhost:${cloud.platform.port}`
    return sandboxCommands({ runtimeUrl, accessToken: detail.envdAccessToken }).run(
      '/bin/bash',
      ['-c', script],
      {
        timeoutMs: 10_000,
        tag: 'test',
      },
    )
  }

  beforeAll(async () => {
    cloud = await startTestPlatform({ apiKey: cloudKey })
    stack = await startTestPlatform()
    const added = await ideCall(stack.platform, 'POST', '/remotes', { apiKey: cloudKey, apiUrl: cloud.url })
    expect(added.status).toBe(201)
    remoteId = added.json.remoteId
    access = { url: stack.url, apiKey: stack.apiKey, ideToken: stack.platform.ideToken.current(), remoteId }
    students = await startTestClass(access)
  }, 60_000)
  afterAll(async () => {
    await stack?.close()
    await cloud?.close()
  })

  it('makes the sandboxes on E2B, secure and marked with the class, and none on the stack', async () => {
    expect(stack.platform.manager.list()).toEqual([])
    const listed = await (await cloud.api('GET', '/v2/sandboxes?metadata=class%3Dmonday')).json()
    expect(listed.map((s: { metadata: { student: string } }) => s.metadata.student).sort()).toEqual([
      'ada',
      'ben',
      'cy',
    ])
    for (const s of students) {
      expect(s.ideUrl).toMatch(new RegExp(`^${stack.url}/join#token=[A-Za-z0-9_-]{43}$`))
      expect((await inCloud(s.sandboxId)).envdAccessToken).toEqual(expect.any(String))
    }
    // The class command lists it again with the same links, from the stack.
    expect((await listClass(access, 'monday')).map((s) => [s.student, s.ideUrl])).toEqual(
      students.map((s) => [s.student, s.ideUrl]),
    )
    expect((await ideCall(stack.platform, 'GET', `/remotes/${remoteId}/classes`)).json).toEqual([
      { name: 'monday', remoteId, students: 3, running: 3 },
    ])
    expect((await ideCall(stack.platform, 'GET', '/classes')).json).toEqual([])
  })

  it("opens a student's own E2B sandbox from their link, and nothing else", async () => {
    const ada = byName('ada')
    const ben = byName('ben')
    const { answer, headers } = await join(ada.ideUrl)
    expect(answer).toEqual({ pageKey: expect.any(String), sandboxId: ada.sandboxId, remoteId })
    expect((await browserCall('GET', '/auth', headers)).json).toEqual({
      signedIn: true,
      role: 'student',
      sandboxId: ada.sandboxId,
      remoteId,
      student: 'ada',
    })
    const session = await browserCall(
      'GET',
      `/remotes/${remoteId}/sandboxes/${ada.sandboxId}/session`,
      headers,
    )
    expect(session.status, session.text).toBe(200)
    // The browser talks to E2B's sandbox domain directly, with the sandbox's own token.
    expect(session.json).toMatchObject({
      source: 'e2b',
      remoteId,
      sandboxId: ada.sandboxId,
      runtimeUrl: `http://49983-${ada.sandboxId}.localhost:${cloud.platform.port}`,
      accessToken: (await inCloud(ada.sandboxId)).envdAccessToken,
      teacherHere: false,
    })
    const list = (token: string, id: string) =>
      rawRequest({
        port: cloud.platform.port,
        host: `49983-${id}.localhost:${cloud.platform.port}`,
        method: 'POST',
        path: '/process.Process/List',
        headers: { 'Content-Type': 'application/json', 'X-Access-Token': token },
        body: '{}',
      })
    expect((await list(session.json.accessToken, ada.sandboxId)).status).toBe(200)
    // Her sandbox's token opens no other sandbox's runtime.
    expect((await list(session.json.accessToken, ben.sandboxId)).status).toBe(401)

    const refused: [string, string][] = [
      ['GET', `/remotes/${remoteId}/sandboxes/${ben.sandboxId}/session`],
      ['POST', `/remotes/${remoteId}/sandboxes/${ben.sandboxId}/pause`],
      ['GET', `/sandboxes/${ada.sandboxId}/session`],
      ['GET', '/remotes'],
      ['POST', `/remotes/${remoteId}/sandboxes`],
      ['GET', `/remotes/${remoteId}/classes`],
      ['GET', classPath()],
      ['POST', classPath('/check')],
      ['POST', `/remotes/${remoteId}/sandboxes/${ada.sandboxId}/join-links`],
      ['POST', `/remotes/${remoteId}/sandboxes/${ada.sandboxId}/lab-reset`],
      ['GET', `/join-links?remoteId=${remoteId}`],
    ]
    for (const [method, path] of refused) {
      const res = await browserCall(method, path, headers)
      expect(res.status, `${method} ${path}`).toBe(403)
      expect(res.text).not.toContain(ben.sandboxId)
      expect(res.text).not.toContain(cloudKey)
    }
    // Her own sandbox: more time, as on the stack.
    const extended = await browserCall(
      'POST',
      `/remotes/${remoteId}/sandboxes/${ada.sandboxId}/timeout`,
      { ...headers },
      { seconds: 900 },
    )
    expect(extended.status).toBe(200)

    // The teacher opens her workspace: her page is told.
    expect(
      (await ideCall(stack.platform, 'GET', `/remotes/${remoteId}/sandboxes/${ada.sandboxId}/session`))
        .status,
    ).toBe(200)
    const again = await browserCall('GET', `/remotes/${remoteId}/sandboxes/${ada.sandboxId}/session`, headers)
    expect(again.json.teacherHere).toBe(true)

    // The dashboard: her link opened, her page seen; the others waiting.
    const rows = (await view()).students
    expect(row(rows, 'ada')).toMatchObject({ link: { state: 'opened' }, state: 'running' })
    expect(Date.parse(row(rows, 'ada').lastActivityAt)).toBeGreaterThan(Date.now() - 60_000)
    expect(row(rows, 'ben')).toMatchObject({ link: { state: 'waiting' }, lastActivityAt: null })

    // A new link for her (the CLI's --new-link does the same): the old session ends.
    const links = (
      await ideCall(stack.platform, 'GET', `/join-links?remoteId=${remoteId}&sandboxId=${ada.sandboxId}`)
    ).json
    expect(links).toHaveLength(1)
    expect((await ideCall(stack.platform, 'DELETE', `/join-links/${links[0].id}`)).status).toBe(204)
    expect(
      (await browserCall('GET', `/remotes/${remoteId}/sandboxes/${ada.sandboxId}/session`, headers)).status,
    ).toBe(401)
  })

  it("checks everyone's lab on E2B, resets one, and pauses, resumes and extends through E2B's API", async () => {
    const [ada, , cy] = students as [StudentSandbox, StudentSandbox, StudentSandbox]
    await inSandbox(ada.sandboxId, `cat > ~/main.py <<'PY'\n${solved}PY`)
    const checked = await ideCall(stack.platform, 'POST', classPath('/check'))
    expect(checked.json).toEqual({ passed: 1, checked: 3, students: 3 })
    expect(row((await view()).students, 'ada').check).toMatchObject({ passed: true, status: 'exit status 0' })
    expect(row((await view()).students, 'ben').check).toMatchObject({ passed: false })

    const reset = await ideCall(
      stack.platform,
      'POST',
      `/remotes/${remoteId}/sandboxes/${ada.sandboxId}/lab-reset`,
    )
    expect(reset.status).toBe(204)
    expect((await inSandbox(ada.sandboxId, 'cat ~/main.py')).output).toContain('return None')
    expect(row((await view()).students, 'ada').check).toMatchObject({ passed: null })

    const paused = await ideCall(stack.platform, 'POST', classPath('/pause'), { sandboxIds: [cy.sandboxId] })
    expect(paused.json).toEqual({ changed: 1 })
    expect((await inCloud(cy.sandboxId)).state).toBe('paused')
    expect((await ideCall(stack.platform, 'POST', classPath('/check'))).json).toMatchObject({ checked: 2 })
    expect((await ideCall(stack.platform, 'POST', classPath('/resume'))).json).toEqual({ changed: 1 })
    expect((await inCloud(cy.sandboxId)).state).toBe('running')
    expect((await ideCall(stack.platform, 'POST', classPath('/timeout'), { seconds: 7200 })).json).toEqual({
      changed: 3,
    })
    expect(Date.parse((await inCloud(cy.sandboxId)).endAt) - Date.now()).toBeGreaterThan(7000_000)
  })

  it('refuses bad input with clear errors and changes nothing', async () => {
    const bad: [string, string, unknown, number][] = [
      ['POST', `/remotes/${remoteId}/sandboxes`, { templateId: 'x', metadata: { '': 'y' } }, 400],
      ['POST', `/remotes/${remoteId}/sandboxes`, { templateId: '../x' }, 400],
      ['POST', `/remotes/${remoteId}/sandboxes`, { templateId: 'base', extra: 1 }, 400],
      ['POST', '/remotes/000000000000/sandboxes', { templateId: 'base' }, 404],
      ['POST', `/remotes/${remoteId}/sandboxes/nope0000000000000000/join-links`, {}, 404],
      ['POST', `/remotes/${remoteId}/sandboxes/a%2F..%2Fb/join-links`, {}, 400],
      ['GET', `/remotes/${remoteId}/classes/tuesday`, undefined, 404],
      ['GET', `/remotes/${remoteId}/classes/..%2F`, undefined, 400],
      ['GET', '/remotes/NOTHEX/classes', undefined, 400],
      ['POST', classPath('/check'), { sandboxIds: ['nope'] }, 400],
    ]
    for (const [method, path, body, status] of bad) {
      const res = await ideCall(stack.platform, method, path, body)
      expect(res.status, `${method} ${path}: ${res.text}`).toBe(status)
      expect(res.json).toEqual({ code: status, message: expect.any(String) })
    }
    expect((await (await cloud.api('GET', '/v2/sandboxes')).json()).length).toBe(3)
  })

  it("npm run class's code: the same key again is the same remote; a new link for one student replaces the old", async () => {
    expect(await addRemote(access, cloudKey, cloud.url)).toBe(remoteId)
    const cy = byName('cy')
    const relinked = await relinkStudent(access, 'monday', 'cy')
    expect(relinked).toMatchObject({ student: 'cy', sandboxId: cy.sandboxId })
    expect(relinked.ideUrl).not.toBe(cy.ideUrl)
    expect((await browserCall('POST', '/join', {}, { token: new URL(cy.ideUrl).hash.slice(7) })).status).toBe(
      401,
    )
    students = students.map((s) => (s.student === 'cy' ? relinked : s))
    await join(relinked.ideUrl)
  })

  it('ends the class: its sandboxes on E2B and their links are gone', async () => {
    const { headers } = await join(byName('ben').ideUrl)
    expect(await endClass(access, 'monday')).toBe(3)
    expect(await (await cloud.api('GET', '/v2/sandboxes')).json()).toEqual([])
    expect((await ideCall(stack.platform, 'GET', `/join-links?remoteId=${remoteId}`)).json).toEqual([])
    expect((await browserCall('GET', '/auth', headers)).status).toBe(401)
    expect((await ideCall(stack.platform, 'GET', classPath())).status).toBe(404)
  })
})
