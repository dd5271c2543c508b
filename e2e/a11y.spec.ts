// Accessibility checked, not hoped for: axe-core audits the workbench, the picker, the teacher's
// dashboard, the command palette, the close dialog, the lab panel and its reset dialog, File: Open…, the preview, and the
// embed with its consent dialog, in the light theme and the dark one; no serious or critical
// finding is allowed (contrast included). The phone layout is audited in phone.spec.ts.

import { axeFindings } from './axeFindings'
import { chromiumLaunchOptions } from './chromium'
import { EditorPage } from './pages/EditorPage'
import { EmbedParentPage } from './pages/EmbedParentPage'
import { LabPanelPage } from './pages/LabPanelPage'
import { WorkbenchPage } from './pages/WorkbenchPage'
import { SandboxFiles } from './sandboxFiles'
import { expect, test } from './sharedContext'
import { stackForThisFile } from './stack'

// See embed.spec.ts: the embed's parent page is answered by Playwright.
const launch = chromiumLaunchOptions()
test.use({
  launchOptions: { ...launch, args: [...(launch.args ?? []), '--disable-features=LocalNetworkAccessChecks'] },
})

const stack = stackForThisFile()

for (const theme of ['light', 'dark'] as const) {
  test(`the workbench, its palette, dialog and preview have no serious finding (${theme})`, async ({
    page,
  }) => {
    await page.emulateMedia({ colorScheme: theme })
    const files = await SandboxFiles.of(stack)
    await files.write('/home/user/a11y/page.html', '<h1>A page</h1>')
    const wb = new WorkbenchPage(page)
    await wb.goto(stack.link())
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme)
    expect(await axeFindings(page)).toEqual([])

    await wb.type('cd ~/a11y && python3 -m http.server 8010\n')
    const port = page.getByRole('region', { name: 'Ports' }).getByRole('listitem', { name: 'Port 8010' })
    await port.getByRole('button', { name: 'Preview' }).click()
    await expect(page.getByRole('region', { name: 'Preview of port 8010' }).locator('iframe')).toBeVisible()
    expect(await axeFindings(page)).toEqual([])

    const editor = new EditorPage(page)
    await editor.open('/home/user/a11y/page.html')
    await editor.editable()
    await editor.typeAtEnd('<p>unsaved</p>')
    // Delete on the tab asks first: the file has unsaved changes.
    await editor.tab('page.html').press('Delete')
    await expect(editor.closeDialog).toBeVisible()
    expect(await axeFindings(page)).toEqual([])
    await editor.closeDialog.getByRole('button', { name: /Don.t save/ }).click()

    await page.keyboard.press('Control+Shift+P')
    await expect(wb.palette).toBeVisible()
    expect(await axeFindings(page)).toEqual([])
    await page.keyboard.press('Escape')
    await wb.type('\u0003')
  })
}

test("the teacher's dashboard, a check's output and the end-class dialog have no serious finding", async ({
  page,
}) => {
  const created = await stack.api('POST', '/v2/sandboxes', {
    templateID: 'python-basics',
    metadata: { class: 'audit', student: 'ada' },
  })
  expect(created.status).toBe(201)
  await page.goto(stack.link('/class/audit'))
  const table = page.getByRole('table', { name: 'Students of audit' })
  await expect(table).toBeVisible({ timeout: 20_000 })
  await page.getByRole('button', { name: 'Run the check for everyone' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'passing' })).toHaveText('0 of 1 passing', {
    timeout: 30_000,
  })
  await table.getByText('failed', { exact: true }).click()
  expect(await axeFindings(page)).toEqual([])
  await page.getByRole('button', { name: 'End the class…' }).click()
  await expect(page.getByRole('alertdialog', { name: 'End the class audit?' })).toBeVisible()
  expect(await axeFindings(page)).toEqual([])
})

test('the sandbox picker has no serious finding', async ({ page }) => {
  await page.goto(stack.link('/sandbox'))
  await expect(page.getByRole('table', { name: 'Local sandboxes' })).toBeVisible()
  expect(await axeFindings(page)).toEqual([])
})

for (const theme of ['light', 'dark'] as const)
  test(`the lab panel and its reset dialog have no serious finding (${theme})`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: theme })
    const res = await stack.api('POST', '/sandboxes', { templateID: 'python-basics', timeout: 600 })
    expect(res.status).toBe(201)
    const { sandboxID } = (await res.json()) as { sandboxID: string }
    const wb = new WorkbenchPage(page)
    await wb.goto(stack.link(`/sandbox/${sandboxID}`))
    const lab = new LabPanelPage(page)
    await expect(lab.instructions).toContainText(/\w/)
    expect(await axeFindings(page)).toEqual([])
    await lab.button('Reset…').click()
    await expect(lab.resetDialog).toBeVisible()
    expect(await axeFindings(page)).toEqual([])
    await page.keyboard.press('Escape')

    const editor = new EditorPage(page)
    await editor.showOpenDialog()
    expect(await axeFindings(page)).toEqual([])
    await page.keyboard.press('Escape')
    await stack.api('DELETE', `/sandboxes/${sandboxID}`)
  })

for (const theme of ['light', 'dark'] as const)
  test(`the embed and its consent dialog have no serious finding (${theme})`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: theme })
    const parent = new EmbedParentPage(page, stack)
    await parent.gotoTestParent(`panels=files,editor,terminal&theme=${theme}`)
    await expect(parent.ide.getByRole('tree', { name: 'Files' })).toBeVisible()
    await expect.poll(() => parent.terminalText()).toMatch(/\$$/)
    expect(await axeFindings(page)).toEqual([])
    await parent.start('runCommand', 'echo audited')
    await expect(parent.consent).toBeVisible()
    expect(await axeFindings(page)).toEqual([])
    await parent.consent.getByRole('button', { name: "Don't run" }).click()
  })
