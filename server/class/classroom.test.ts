// A class of 20 on a real platform (bubblewrap where the machine has it): every student's sandbox
// runs, starts from the lab's files, runs commands, and sees nothing of the others.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runBash } from '../platform/launcher/testing/sandboxCalls'
import { startTestPlatform, type TestPlatform } from '../platform/testing/platformFixture'
import { runtimePort } from '../platform/testing/runtimeBridge'
import {
  endClass,
  listClass,
  numberedStudents,
  relinkStudent,
  type StudentSandbox,
  startClass,
} from './classroom'

const students = 20
const startingMain = readFileSync(
  join(import.meta.dirname, '..', '..', 'labs', 'python-basics', 'main.py'),
  'utf8',
)

describe('a class of 20 on one machine', () => {
  let tp: TestPlatform
  let sandboxes: StudentSandbox[]
  const access = () => ({ url: tp.url, apiKey: tp.apiKey })
  const address = async (s: StudentSandbox) => {
    const route = tp.platform.manager.route(s.sandboxId)
    if (route.kind !== 'running') throw new Error(`${s.student}'s sandbox is ${route.kind}`)
    return { port: await runtimePort(route.runtime), token: route.runtime.accessToken }
  }
  const inEach = (script: string) =>
    Promise.all(sandboxes.map(async (s) => runBash(await address(s), script)))

  beforeAll(async () => {
    tp = await startTestPlatform({ maxSandboxes: students + 5 })
  })
  afterAll(() => tp.close())

  it('creates one running sandbox per student from the template, named in its metadata', async () => {
    const result = await startClass(access(), {
      className: 'monday',
      template: 'python-basics',
      students: numberedStudents(students),
      timeoutSeconds: 600,
    })
    expect(result.failures).toEqual([])
    sandboxes = result.sandboxes
    expect(sandboxes.map((s) => s.student)).toEqual(numberedStudents(students))
    expect(new Set(sandboxes.map((s) => s.sandboxId)).size).toBe(students)
    for (const s of sandboxes) expect(s.ideUrl).toBe(`${tp.url}/sandbox/${s.sandboxId}`)
    expect(await listClass(access(), 'monday')).toEqual(sandboxes)
    for (const s of sandboxes) {
      const record = tp.platform.manager.get(s.sandboxId)
      expect(record).toMatchObject({
        state: 'running',
        templateID: 'python-basics',
        autoPause: true,
        metadata: { class: 'monday', student: s.student },
      })
    }
  }, 120_000)

  it('gives every student the starting files, and every sandbox runs the lab’s check', async () => {
    for (const { stdout } of await inEach('cat ~/main.py')) expect(stdout).toBe(startingMain)
    for (const run of await inEach('cd ~ && python3 -B -m unittest discover -s tests 2>&1')) {
      expect(run.exitCode).toBe(1)
      expect(run.stdout).toContain('FAILED')
    }
  }, 120_000)

  it('keeps each student’s work to their own sandbox', async () => {
    const [first, ...others] = sandboxes
    if (!first) throw new Error('no sandboxes')
    await runBash(await address(first), 'echo "def average(n): return 42" > ~/main.py && touch ~/mine.txt')
    expect((await runBash(await address(first), 'cat ~/main.py')).stdout).toBe('def average(n): return 42\n')
    for (const s of others) {
      const seen = await runBash(await address(s), 'cat ~/main.py; ls ~; ls /home')
      expect(seen.stdout).toBe(`${startingMain}main.py\ntests\nuser\n`)
    }
  }, 120_000)

  it('ends the class: every sandbox of it is killed', async () => {
    expect(await endClass(access(), 'monday')).toBe(students)
    expect(await listClass(access(), 'monday')).toEqual([])
    expect(tp.platform.manager.list()).toEqual([])
  }, 120_000)

  it('gives each student a join link of their own with the IDE token, and a new one on demand', async () => {
    const owner = {
      ...access(),
      ideToken: tp.platform.ideToken.current(),
      publicUrl: 'https://class.test:8787',
    }
    const { sandboxes: made } = await startClass(owner, {
      className: 'tuesday',
      template: 'base',
      students: ['ada', 'ben'],
      timeoutSeconds: 600,
    })
    for (const s of made)
      expect(s.ideUrl).toMatch(/^https:\/\/class\.test:8787\/join#token=[A-Za-z0-9_-]{43}$/)
    expect(new Set(made.map((s) => s.ideUrl)).size).toBe(2)
    // Listed again: the same links, not new ones.
    expect(await listClass(owner, 'tuesday')).toEqual(made)
    const ada = made.find((s) => s.student === 'ada') as StudentSandbox
    const fresh = await relinkStudent(owner, 'tuesday', 'ada')
    expect(fresh.sandboxId).toBe(ada.sandboxId)
    expect(fresh.ideUrl).not.toBe(ada.ideUrl)
    const tokenOf = (url: string) => url.slice(url.indexOf('#token=') + '#token='.length)
    const links = (await listClass(owner, 'tuesday')).map((s) => tokenOf(s.ideUrl))
    expect(links).toContain(tokenOf(fresh.ideUrl))
    expect(links).not.toContain(tokenOf(ada.ideUrl))
    await expect(relinkStudent(owner, 'tuesday', 'cy')).rejects.toThrow("class 'tuesday' has no student 'cy'")
    await endClass(owner, 'tuesday')
  })
})
