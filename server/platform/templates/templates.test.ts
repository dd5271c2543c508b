// Templates on the wire: a sandbox made from a folder of starting files, and the ids refused.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runBash } from '../launcher/testing/sandboxCalls'
import { startTestPlatform, type TestPlatform } from '../testing/platformFixture'
import { runtimePort } from '../testing/runtimeBridge'

describe('templates', () => {
  let tp: TestPlatform
  let templatesDir: string
  beforeAll(async () => {
    templatesDir = mkdtempSync(join(tmpdir(), 'templates-'))
    const lab = join(templatesDir, 'lab-one')
    mkdirSync(join(lab, '.lab'), { recursive: true })
    mkdirSync(join(lab, 'tests'))
    writeFileSync(join(lab, 'main.py'), 'print("start")\n')
    writeFileSync(join(lab, 'run.sh'), '#!/bin/sh\necho run\n', { mode: 0o755 })
    writeFileSync(join(lab, 'tests', 'test_main.py'), 'pass\n')
    writeFileSync(join(lab, '.lab', 'lab.json'), '{"title": "One"}\n')
    // A link is copied as a link, never followed into the host's files.
    symlinkSync('/etc/hostname', join(lab, 'host-link'))
    mkdirSync(join(templatesDir, 'plain'))
    writeFileSync(join(templatesDir, 'plain', 'notes.txt'), 'notes\n')
    tp = await startTestPlatform({ templatesDir })
  })
  afterAll(async () => {
    await tp.close()
    rmSync(templatesDir, { recursive: true, force: true })
  })

  const create = async (templateID: string) => {
    const res = await tp.api('POST', '/sandboxes', { templateID })
    expect(res.status).toBe(201)
    const body = (await res.json()) as { sandboxID: string; envdAccessToken: string; templateID: string }
    const route = tp.platform.manager.route(body.sandboxID)
    if (route.kind !== 'running') throw new Error(`sandbox ${body.sandboxID} is ${route.kind}`)
    return { ...body, sandbox: { port: await runtimePort(route.runtime), token: body.envdAccessToken } }
  }

  it('starts a sandbox’s home with the template’s files, owned by the sandbox user, plus the lab’s starting copy', async () => {
    const { sandboxID, templateID, sandbox } = await create('lab-one')
    expect(templateID).toBe('lab-one')
    const listed = (await (await tp.api('GET', '/v2/sandboxes')).json()) as {
      sandboxID: string
      templateID: string
    }[]
    expect(listed.find((s) => s.sandboxID === sandboxID)?.templateID).toBe('lab-one')
    expect((await (await tp.api('GET', `/sandboxes/${sandboxID}`)).json()).templateID).toBe('lab-one')

    // The home holds the lab's files, and .lab/start the same again.
    const labFiles = [
      '.',
      './.lab',
      './.lab/lab.json',
      './host-link',
      './main.py',
      './run.sh',
      './tests',
      './tests/test_main.py',
    ]
    const home = await runBash(sandbox, 'cd ~ && find . -path ./.lab/start -prune -o -print | sort')
    expect(home.stdout.split('\n').filter(Boolean)).toEqual(labFiles)
    const start = await runBash(sandbox, 'cd ~/.lab/start && find . | sort')
    expect(start.stdout.split('\n').filter(Boolean)).toEqual(labFiles)
    const facts = await runBash(
      sandbox,
      'cd ~ && stat -c "%U %a" main.py run.sh tests .lab/start/main.py && readlink host-link && ./run.sh && echo "$E2B_TEMPLATE_ID"',
    )
    const user = (await runBash(sandbox, 'id -un')).stdout.trim()
    expect(facts.stdout).toBe(
      `${user} 644\n${user} 755\n${user} 755\n${user} 644\n/etc/hostname\nrun\nlab-one\n`,
    )
  })

  it('gives a template without a lab its files and no starting copy; base starts empty', async () => {
    const plain = await create('plain')
    expect((await runBash(plain.sandbox, 'cd ~ && ls -A')).stdout).toBe('notes.txt\n')
    const base = await create('base')
    expect((await runBash(base.sandbox, 'cd ~ && ls -A')).stdout).toBe('')
  })

  it('answers an unknown template with 404 and the templates there are', async () => {
    const res = await tp.api('POST', '/v2/sandboxes', { templateID: 'python-gpu' })
    expect(res.status).toBe(404)
    expect(await res.json()).toEqual({
      code: 404,
      message: "template 'python-gpu' not found: this local platform has 'base', 'lab-one', 'plain'",
    })
  })

  it('refuses template ids that are not names with 400, before touching the disk', async () => {
    for (const templateID of [
      '..',
      '../lab-one',
      'lab-one/..',
      'a/b',
      '/etc',
      '.lab',
      'Lab-One',
      'x\u0000',
    ]) {
      const res = await tp.api('POST', '/v2/sandboxes', { templateID })
      expect(res.status, templateID).toBe(400)
      expect((await res.json()).message).toContain('is not valid')
    }
  })
})
