// Accessibility checked, not hoped for: axe-core audits the workbench, the picker, the command
// palette, the close dialog, the lab panel and the preview, in the light theme and the dark one; no serious or
// critical finding is allowed (contrast included).
import AxeBuilder from '@axe-core/playwright'
import { expect, type Page, test } from '@playwright/test'
import { EditorPage } from './pages/EditorPage'
import { LabPanelPage } from './pages/LabPanelPage'
import { WorkbenchPage } from './pages/WorkbenchPage'
import { SandboxFiles } from './sandboxFiles'
import { stackForThisFile } from './stack'

const stack = stackForThisFile()

/** The serious and critical findings on the page now, one line each. */
async function findings(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze()
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
}

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
    expect(await findings(page)).toEqual([])

    await wb.type('cd ~/a11y && python3 -m http.server 8010\n')
    const port = page.getByRole('region', { name: 'Ports' }).getByRole('listitem', { name: 'Port 8010' })
    await port.getByRole('button', { name: 'Preview' }).click()
    await expect(page.getByRole('region', { name: 'Preview of port 8010' }).locator('iframe')).toBeVisible()
    expect(await findings(page)).toEqual([])

    const editor = new EditorPage(page)
    await editor.open('/home/user/a11y/page.html')
    await editor.editable()
    await editor.typeAtEnd('<p>unsaved</p>')
    // Delete on the tab asks first: the file has unsaved changes.
    await editor.tab('page.html').press('Delete')
    await expect(editor.closeDialog).toBeVisible()
    expect(await findings(page)).toEqual([])
    await editor.closeDialog.getByRole('button', { name: /Don.t save/ }).click()

    await page.keyboard.press('Control+Shift+P')
    await expect(wb.palette).toBeVisible()
    expect(await findings(page)).toEqual([])
    await page.keyboard.press('Escape')
    await wb.type('\u0003')
  })
}

test('the sandbox picker has no serious finding', async ({ page }) => {
  await page.goto(stack.link('/sandbox'))
  await expect(page.getByRole('table', { name: 'Local sandboxes' })).toBeVisible()
  expect(await findings(page)).toEqual([])
})

test('the lab panel has no serious finding', async ({ page }) => {
  const res = await stack.api('POST', '/sandboxes', { templateID: 'python-basics', timeout: 600 })
  expect(res.status).toBe(201)
  const { sandboxID } = (await res.json()) as { sandboxID: string }
  const wb = new WorkbenchPage(page)
  await wb.goto(stack.link(`/sandbox/${sandboxID}`))
  await expect(new LabPanelPage(page).panel).toBeVisible()
  expect(await findings(page)).toEqual([])
  await stack.api('DELETE', `/sandboxes/${sandboxID}`)
})
