// A teaching lab on the real stack: a sandbox made from labs/python-basics through the platform
// API, opened in the IDE, checked, fixed, checked again and reset.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { EditorPage } from './pages/EditorPage'
import { ExplorerPage } from './pages/ExplorerPage'
import { LabPanelPage } from './pages/LabPanelPage'
import { screenshot, WorkbenchPage } from './pages/WorkbenchPage'
import { SandboxFiles } from './sandboxFiles'
import { expect, test } from './sharedContext'
import { stackForThisFile } from './stack'

test.describe.configure({ mode: 'serial' })

const stack = stackForThisFile(['--no-default-sandbox'])
const home = '/home/user'
const labDir = join(import.meta.dirname, '..', 'labs', 'python-basics')
const starting = (path: string) => readFileSync(join(labDir, path), 'utf8')
let files: SandboxFiles

test.beforeAll(async () => {
  const res = await stack.api('POST', '/sandboxes', { templateID: 'python-basics', timeout: 1800 })
  expect(res.status).toBe(201)
  files = await SandboxFiles.at(stack, ((await res.json()) as { sandboxID: string }).sandboxID)
})

/** The workbench on the lab's sandbox, its lab panel shown. */
async function openLab(
  page: Page,
): Promise<{ lab: LabPanelPage; editor: EditorPage; workbench: WorkbenchPage }> {
  const workbench = new WorkbenchPage(page)
  await workbench.goto(stack.link(`/sandbox/${files.sandboxId}`))
  const lab = new LabPanelPage(page)
  await expect(lab.panel).toBeVisible()
  return { lab, editor: new EditorPage(page), workbench }
}

test('the lab opens: its instructions as Markdown, its files in the editor, not checked yet', async ({
  page,
}, testInfo) => {
  const { lab, editor } = await openLab(page)
  await expect(lab.panel).toHaveAccessibleName('Lab: Python basics: an average')
  await expect(lab.instructions.getByRole('heading', { name: 'Python basics: an average' })).toBeVisible()
  await expect(lab.instructions.getByRole('table')).toContainText('average([1, 2])')
  await expect(editor.tab('main.py')).toHaveAttribute('aria-selected', 'true')
  await editor.editable()
  expect(await editor.text()).toContain('return None')
  await expect(lab.result).toHaveText('Not checked yet.')
  await screenshot(page, testInfo, 'lab')
  // The instructions stay as they are while the panel around them changes (a click or a
  // selection in them is not lost): an edit makes the panel say it is unsaved.
  const link = lab.instructions.getByRole('button', { name: 'tests/test_main.py' })
  const linkNode = await link.elementHandle()
  await editor.typeAtEnd('#')
  await expect(lab.panel).toContainText('Unsaved changes in the editor are not checked')
  await page.keyboard.press('Control+Z')
  await expect(lab.panel).not.toContainText('Unsaved changes in the editor are not checked')
  expect(await linkNode?.evaluate((node) => node.isConnected)).toBe(true)
  // A link to a file of the lab opens it in the editor.
  await link.click()
  await expect(editor.tab('test_main.py')).toHaveAttribute('aria-selected', 'true')
})

test('hostile Markdown runs nothing and loads nothing; web links open apart from the IDE', async ({
  page,
}) => {
  const { lab } = await openLab(page)
  await files.write(
    `${home}/.lab/instructions.md`,
    [
      '# Hostile',
      '<script>window.__labPwned = "script"</script>',
      '<img src="x" onerror="window.__labPwned = \'img\'">',
      '<iframe src="javascript:parent.__labPwned=1"></iframe>',
      "[run me](javascript:window.__labPwned='link')",
      '[web page](https://example.org/docs)',
      '![tracker](https://example.org/pixel.png)',
    ].join('\n\n'),
  )
  // The panel follows the file on disk.
  await expect(lab.instructions.getByRole('heading', { name: 'Hostile' })).toBeVisible()
  await expect(lab.instructions.locator('script, img, iframe')).toHaveCount(0)
  await expect(lab.instructions.getByRole('link', { name: 'run me' })).toHaveCount(0)
  await lab.instructions.getByText('run me').click()
  const web = lab.instructions.getByRole('link', { name: 'web page' })
  await expect(web).toHaveAttribute('target', '_blank')
  await expect(web).toHaveAttribute('rel', /noopener/)
  await expect(lab.instructions.getByRole('link', { name: '[Image: tracker]' })).toBeVisible()
  expect(await page.evaluate(() => (window as { __labPwned?: unknown }).__labPwned)).toBeUndefined()
  await files.write(`${home}/.lab/instructions.md`, starting('.lab/instructions.md'))
  await expect(lab.instructions.getByRole('heading', { name: 'Python basics: an average' })).toBeVisible()
})

test('read-only files cannot be edited in the editor, nor renamed or deleted in the explorer', async ({
  page,
}) => {
  const { editor } = await openLab(page)
  await editor.open(`${home}/tests/test_main.py`, 'test_main.py')
  await editor.editable()
  await expect(page.getByTestId('editor-readonly')).toContainText(
    'tests/test_main.py is part of the lab (tests/**)',
  )
  await editor.typeAtEnd('x = 1')
  expect(await editor.text()).not.toContain('x = 1')
  await expect(editor.tab('test_main.py')).toHaveAccessibleName('test_main.py')

  const explorer = new ExplorerPage(page)
  await explorer.select('tests')
  await page.keyboard.press('Delete')
  await expect(page.getByRole('alert').filter({ hasText: 'tests is part of the lab' })).toBeVisible()
  await expect(page.getByRole('dialog', { name: /^Delete / })).toBeHidden()
  expect(await files.read(`${home}/tests/test_main.py`)).toBe(starting('tests/test_main.py'))
})

test('the check fails on the starting files, and passes once the solution is saved', async ({
  page,
}, testInfo) => {
  const { lab, editor, workbench } = await openLab(page)
  await lab.check()
  await expect(lab.result).toHaveText('Failed: exit status 1.')
  await expect(lab.output).toContainText('FAILED (failures=3, errors=1)')

  await editor.tab('main.py').click()
  await editor.editable()
  await editor.retypeLastLine('return sum(numbers) / len(numbers) if numbers else 0')
  await expect(lab.panel.getByText('Unsaved changes in the editor are not checked')).toBeVisible()
  await editor.save()
  await expect(editor.tab('main.py')).toHaveAccessibleName('main.py')
  expect(await files.read(`${home}/main.py`)).toContain(
    '    return sum(numbers) / len(numbers) if numbers else 0\n',
  )

  // From the command palette this time.
  await workbench.command('Lab: Check')
  await expect(lab.result).toHaveText('Passed.', { timeout: 30_000 })
  await screenshot(page, testInfo, 'lab-passed')
})

test('reset asks first, then restores the starting files on disk and in the editor', async ({ page }) => {
  const { lab, editor, workbench } = await openLab(page)
  await files.remove(`${home}/tests/test_main.py`)
  await files.write(`${home}/notes.txt`, 'my notes\n')
  await editor.tab('main.py').click()
  await editor.editable()
  expect(await editor.text()).toContain('return sum(numbers)')

  // Escape is "no": nothing changes.
  await lab.button('Reset…').click()
  await expect(lab.resetDialog).toBeVisible()
  await expect(lab.resetDialog.getByRole('button', { name: 'Cancel' })).toBeFocused()
  await page.keyboard.press('Escape')
  await expect(lab.resetDialog).toBeHidden()
  expect(await files.read(`${home}/main.py`)).toContain('return sum(numbers)')

  await workbench.command('Lab: Reset to the starting files…')
  await lab.confirmReset()
  expect(await files.read(`${home}/main.py`)).toBe(starting('main.py'))
  expect(await files.read(`${home}/tests/test_main.py`)).toBe(starting('tests/test_main.py'))
  expect(await files.read(`${home}/notes.txt`)).toBe('my notes\n')
  // The open, unchanged buffer follows the disk.
  await expect.poll(() => editor.text()).toContain('return None')
  await lab.check()
  await expect(lab.result).toHaveText('Failed: exit status 1.')
})

test('a broken manifest says what is wrong with it', async ({ page }) => {
  const { lab } = await openLab(page)
  await files.write(`${home}/.lab/lab.json`, JSON.stringify({ title: 3, open: 'main.py', extra: true }))
  const problem = lab.panel.getByRole('alert')
  await expect(problem).toContainText('This lab cannot be shown: its manifest has problems.')
  await expect(problem).toContainText('at title')
  await expect(problem).toContainText('at open')
  await expect(problem).toContainText('extra')
  await files.write(`${home}/.lab/lab.json`, '{"title": ')
  await expect(problem).toContainText('.lab/lab.json is not valid JSON')
  await files.write(`${home}/.lab/lab.json`, starting('.lab/lab.json'))
  await expect(lab.button('Check')).toBeVisible()
})
