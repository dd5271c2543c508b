// A lab's hidden files (`grade.hidden`) never reach a student's sandbox, on the real stack:
// not in the home, not in the starting copy, and not anywhere root can look.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runBash } from '../launcher/testing/sandboxCalls'
import { startTestPlatform, type TestPlatform } from '../testing/platformFixture'
import { runtimePort } from '../testing/runtimeBridge'

/** In every hidden file, and nowhere else: what root's search looks for. */
const secret = 'hidden-answer-7d1f3c'

describe("a lab's hidden files", () => {
  let tp: TestPlatform
  let templatesDir: string
  beforeAll(async () => {
    templatesDir = mkdtempSync(join(tmpdir(), 'hidden-templates-'))
    const lab = join(templatesDir, 'graded')
    mkdirSync(join(lab, '.lab'), { recursive: true })
    mkdirSync(join(lab, 'grader', 'deep'), { recursive: true })
    mkdirSync(join(lab, 'tests'))
    writeFileSync(join(lab, 'main.py'), 'def answer():\n    return 0\n')
    writeFileSync(join(lab, 'tests', 'test_visible.py'), 'pass\n')
    writeFileSync(join(lab, 'tests', `expected_${secret}.txt`), `${secret}\n`)
    writeFileSync(join(lab, 'grader', `test_${secret}.py`), `# ${secret}\n`)
    writeFileSync(join(lab, 'grader', 'deep', 'data.txt'), `${secret}\n`)
    writeFileSync(
      join(lab, '.lab', 'lab.json'),
      JSON.stringify({
        title: 'Graded',
        grade: { hidden: ['grader/**', 'tests/expected_*.txt'], command: 'true' },
      }),
    )
    // A manifest with a grade it cannot read: which files are hidden is unknown.
    mkdirSync(join(templatesDir, 'broken', '.lab'), { recursive: true })
    writeFileSync(join(templatesDir, 'broken', `secret_${secret}`), `${secret}\n`)
    writeFileSync(
      join(templatesDir, 'broken', '.lab', 'lab.json'),
      JSON.stringify({ title: 'Broken', grade: { hiden: ['secret_*'], command: 'true' } }),
    )
    tp = await startTestPlatform({ templatesDir })
  })
  afterAll(async () => {
    await tp.close()
    rmSync(templatesDir, { recursive: true, force: true })
  })

  it('are in neither the home nor its starting copy, and root finds them nowhere', async () => {
    const { sandboxID, envdAccessToken } = await tp.createSandbox({ templateID: 'graded' })
    const route = tp.platform.manager.route(sandboxID)
    if (route.kind !== 'running') throw new Error(`sandbox is ${route.kind}`)
    const sandbox = { port: await runtimePort(route.runtime), token: envdAccessToken }

    const home = await runBash(sandbox, 'cd ~ && find . | sort')
    expect(home.stdout.split('\n').filter(Boolean)).toEqual([
      '.',
      './.lab',
      './.lab/lab.json',
      './.lab/start',
      './.lab/start/.lab',
      './.lab/start/.lab/lab.json',
      './.lab/start/main.py',
      './.lab/start/tests',
      './.lab/start/tests/test_visible.py',
      './main.py',
      './tests',
      './tests/test_visible.py',
    ])
    // As root where the sandbox has one: every name in the file system, and every file's text
    // where a sandbox writes; a file of the sandbox's own shows the search finds what is there.
    const asRoot = tp.platform.launcher.root === 'sudo' ? 'sudo -n ' : ''
    const control = `/tmp/control-${secret}`
    const search = await runBash(
      sandbox,
      `echo ${secret} > ${control}; ${asRoot}find / \\( -path /proc -o -path /sys -o -path /dev \\) -prune -o -name "*${secret}*" -print 2>/dev/null; ` +
        `${asRoot}grep -rlsI ${secret} /home /root /tmp /var /opt /srv /etc 2>/dev/null; echo "searched as $(${asRoot}id -un)"`,
    )
    expect(search.stdout).toBe(`${control}\n${control}\nsearched as ${asRoot ? 'root' : 'user'}\n`)
  }, 120_000)

  it('keep a lab whose grade cannot be read from making sandboxes at all', async () => {
    const res = await tp.api('POST', '/v2/sandboxes', { templateID: 'broken' })
    expect(res.status).toBe(500)
    expect((await res.json()).message).toMatch(/hidden files cannot be told.*hiden/s)
  })
})
