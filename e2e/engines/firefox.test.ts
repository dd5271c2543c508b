// The core of the browser tests in Firefox ESR (Debian's, over WebDriver BiDi): the workbench,
// a terminal's echo (keystrokes by SendInput: Firefox cannot stream a request body), the same
// shell after a reload, the explorer, the editor, pause and resume, and the embed's handshake
// with a command and its consent. Against the real stack, as the Chromium tests are.

import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'puppeteer-core'
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFailed } from 'vitest'
import { LocalStack } from '../localStack'
import { SandboxFiles } from '../sandboxFiles'
import { EngineWorkbench } from './EngineWorkbench'
import { launchFirefox } from './firefox'

const home = '/home/user'
const artifacts = join(import.meta.dirname, '..', '..', 'test-results', 'engines', 'firefox')

describe('Firefox ESR', () => {
  const stack = new LocalStack()
  let browser: Browser
  let page: Page
  let wb: EngineWorkbench
  let files: SandboxFiles

  beforeAll(async () => {
    ;[browser] = await Promise.all([launchFirefox(), stack.start()])
    files = await SandboxFiles.of(stack)
  }, 90_000)
  afterAll(async () => {
    await browser?.close()
    await stack.dispose()
  })
  beforeEach(async (test) => {
    // A fresh context per test: nothing kept between them but what the sandbox keeps.
    const context = await browser.createBrowserContext()
    page = await context.newPage()
    await page.setViewport({ width: 1280, height: 800 })
    wb = new EngineWorkbench(page)
    // What the page showed when a test failed, beside the other browser tests' artifacts.
    onTestFailed(async () => {
      mkdirSync(artifacts, { recursive: true })
      const name = test.task.name.replace(/[^a-z0-9]+/gi, '-').slice(0, 80)
      await page.screenshot({ path: join(artifacts, `${name}.png`) }).catch(() => {})
    })
  })

  it('opens the workbench; what is typed reaches the shell whole and in order', async () => {
    await wb.open(stack.link())
    await wb.run('echo ff-$((6*7))', 'ff-42')
    const line = 'the quick brown fox jumps over the lazy dog 0123456789'
    await wb.run(`echo "${line}" | rev`, line.split('').reverse().join(''))
  })

  it('finds the same shell, with its screen, after a reload', async () => {
    await wb.open(stack.link())
    await wb.run('echo shell=$$', /shell=\d+/)
    const pid = (await wb.terminalText()).match(/shell=(\d+)/)?.[1]
    await page.reload()
    await wb.waitForState('Running')
    await wb.terminalShows(`shell=${pid}`)
    await wb.run('echo again=$$', `again=${pid}`)
  })

  it('creates, renames and deletes in the explorer, each checked on disk', async () => {
    await wb.open(stack.link())
    await wb.click('button', 'New folder')
    await (await wb.byRole('textbox', /.*/)).type('ffdocs\n')
    await wb.byRole('treeitem', 'ffdocs')
    await expect.poll(() => files.stat(`${home}/ffdocs`)).toMatchObject({ type: 'FILE_TYPE_DIRECTORY' })

    await wb.click('treeitem', 'ffdocs')
    await page.keyboard.press('F2')
    const input = await wb.byRole('textbox', /.*/)
    await input.click({ count: 3 })
    await input.type('ffnotes\n')
    await wb.byRole('treeitem', 'ffnotes')
    await expect.poll(() => files.stat(`${home}/ffnotes`)).toBeDefined()
    expect(await files.stat(`${home}/ffdocs`)).toBeUndefined()

    await wb.click('treeitem', 'ffnotes')
    await page.keyboard.press('Delete')
    const dialog = new EngineWorkbench(page)
    await dialog.byRole('dialog', /^Delete /)
    await dialog.click('button', 'Delete')
    await wb.gone('treeitem', 'ffnotes')
    expect(await files.stat(`${home}/ffnotes`)).toBeUndefined()
  })

  it('edits a file in the editor and saves it to disk', async () => {
    await files.write(`${home}/ff.txt`, 'first line\n')
    await wb.open(stack.link())
    await wb.click('treeitem', 'ff.txt')
    const lines = await page.waitForSelector('.monaco-editor .view-lines', { timeout: 30_000 })
    // Monaco draws spaces as non-breaking ones.
    await page.waitForFunction(() =>
      document
        .querySelector('.monaco-editor .view-lines')
        ?.textContent?.replace(/\u00a0/g, ' ')
        .includes('first line'),
    )
    await lines?.click()
    await page.keyboard.down('Control')
    await page.keyboard.press('End')
    await page.keyboard.up('Control')
    await page.keyboard.type('typed in Firefox')
    await page.keyboard.down('Control')
    await page.keyboard.press('s')
    await page.keyboard.up('Control')
    await expect.poll(() => files.read(`${home}/ff.txt`)).toBe('first line\ntyped in Firefox')
  })

  it('pauses and resumes; the shell goes on where it was', async () => {
    await wb.open(stack.link())
    await wb.run('echo before=$$', /before=\d+/)
    const pid = (await wb.terminalText()).match(/before=(\d+)/)?.[1]
    await wb.click('button', 'Pause')
    await wb.waitForState('Paused')
    await wb.click('button', 'Resume')
    await wb.waitForState('Running')
    await wb.run('echo after=$$', `after=${pid}`)
  })

  it('embeds in the demo page, opens a file, and runs a command once the user agrees', async () => {
    const demoOrigin = `http://embed-demo.localhost:${stack.port}`
    await page.goto(stack.link('/', demoOrigin))
    const parent = new EngineWorkbench(page)
    await page.waitForFunction(
      () => document.querySelector('[role="log"][aria-label="Events"]')?.textContent?.includes('ready'),
      { timeout: 30_000 },
    )
    const frame = await (await page.waitForSelector('iframe#ide'))?.contentFrame()
    if (!frame) throw new Error('the demo page has no IDE frame')
    const ide = new EngineWorkbench(frame)
    await ide.byRole('tree', 'Files')
    await parent.click('button', 'Open hello.py')
    await ide.byRole('tab', /^hello\.py/)
    await parent.click('button', 'Run python3 hello.py')
    const consent = await ide.byRole('alertdialog', 'Run this command?')
    expect(await consent.evaluate((el) => el.textContent)).toContain('python3 hello.py')
    await ide.click('button', 'Run')
    await page.waitForFunction(
      () =>
        document.querySelector('[role="log"][aria-label="Events"]')?.textContent?.includes('"exitCode":0'),
      { timeout: 20_000 },
    )
    await ide.terminalShows('Hello from the sandbox!')
  })
})
