import AxeBuilder from '@axe-core/playwright'
import { expect, test } from '@playwright/test'
import { chromiumLaunchOptions } from './chromium'
import { EmbedParentPage } from './pages/EmbedParentPage'
import { SandboxFiles } from './sandboxFiles'
import { stackForThisFile } from './stack'

// A documentation page read on a phone (issue 22): the embed at 390×844 with touch, typed into
// from the on-screen keyboard (text arrives as input events, not key presses), with the key bar
// for what that keyboard lacks, panels stacked instead of squeezed, and everything tapped.
const launch = chromiumLaunchOptions()
test.use({
  // See embed.spec.ts: the test parent page is answered by Playwright.
  launchOptions: { ...launch, args: [...(launch.args ?? []), '--disable-features=LocalNetworkAccessChecks'] },
  viewport: { width: 390, height: 844 },
  deviceScaleFactor: 3,
  isMobile: true,
  hasTouch: true,
})

const stack = stackForThisFile()

test('on a phone the embed stacks its panels, takes the on-screen keyboard, and offers the keys it lacks', async ({
  page,
}) => {
  const files = await SandboxFiles.of(stack)
  await files.write('/home/user/phone/notes.md', '# Read on a phone\n')
  const parent = new EmbedParentPage(page, stack)
  await parent.gotoTestParent('panels=files,editor,terminal', { fill: true })
  const ide = parent.ide
  const tree = ide.getByRole('tree', { name: 'Files' })
  const keys = ide.getByRole('toolbar', { name: 'Terminal keys' })
  const screen = ide.locator('.xterm-screen')
  await expect(tree).toBeVisible()
  await expect(keys).toBeVisible()

  // Stacked: the explorer spans the screen's width above the terminal, not a column beside it.
  const treeBox = await tree.boundingBox()
  const screenBox = await screen.boundingBox()
  if (!treeBox || !screenBox) throw new Error('the explorer or the terminal has no box')
  expect(treeBox.width).toBeGreaterThan(300)
  expect(treeBox.y + treeBox.height).toBeLessThanOrEqual(screenBox.y)

  // Typed on the on-screen keyboard: text comes as input events.
  await screen.tap()
  const typeOnScreen = async (text: string) => {
    await page.keyboard.insertText(text)
    await page.keyboard.press('Enter')
  }
  await expect.poll(() => parent.terminalText()).toMatch(/\$$/)
  await typeOnScreen('echo phone-$((6*7))')
  await expect.poll(() => parent.terminalText()).toContain('phone-42')

  // Up recalls the last command; the key bar never takes the keyboard from the terminal.
  await keys.getByRole('button', { name: 'Up' }).tap()
  await expect(ide.locator('.xterm-helper-textarea')).toBeFocused()
  await page.keyboard.press('Enter')
  await expect.poll(async () => (await parent.terminalText()).match(/^phone-42$/gm)?.length).toBe(2)

  // Tab completes.
  await page.keyboard.insertText('ech')
  await keys.getByRole('button', { name: 'Tab' }).tap()
  await typeOnScreen('tab-done')
  await expect.poll(() => parent.terminalText()).toMatch(/^tab-done$/m)

  // Ctrl, then C on the on-screen keyboard, interrupts; Ctrl lets go after one key.
  await typeOnScreen('sleep 600')
  const ctrl = keys.getByRole('button', { name: 'Ctrl' })
  await ctrl.tap()
  await expect(ctrl).toHaveAttribute('aria-pressed', 'true')
  await page.keyboard.insertText('c')
  await expect(ctrl).toHaveAttribute('aria-pressed', 'false')
  await expect.poll(() => parent.terminalText()).toMatch(/sleep 600\n\^C\n.*\$$/)

  // Left moves the cursor in the line being edited: the inserted text lands before the last word.
  await page.keyboard.insertText('echo world')
  for (let i = 0; i < 'world'.length; i++) await keys.getByRole('button', { name: 'Left' }).tap()
  await typeOnScreen('hello-')
  await expect.poll(() => parent.terminalText()).toMatch(/^hello-world$/m)

  // Esc reaches the program: vim leaves insert mode with it, and quits.
  await typeOnScreen('vim -u NONE ~/phone/typed.txt')
  await expect.poll(() => parent.terminalText()).toContain('typed.txt')
  await page.keyboard.insertText('itapped in vim')
  await keys.getByRole('button', { name: 'Escape' }).tap()
  await typeOnScreen(':wq')
  await expect
    .poll(() => files.read('/home/user/phone/typed.txt').catch(() => 'not written yet'))
    .toBe('tapped in vim\n')

  // The explorer and the editor's tabs by touch: tap a folder, then a file, then its tab.
  await tree.getByRole('treeitem', { name: 'phone' }).tap()
  await tree.getByRole('treeitem', { name: 'notes.md' }).tap()
  const tab = ide.getByRole('tab', { name: /^notes\.md/ })
  await expect(tab).toBeVisible()
  await tab.tap()
  await expect(tab).toHaveAttribute('aria-selected', 'true')
  await expect(ide.locator('.monaco-editor .view-lines')).toContainText('Read on a phone')
  const rowBox = await tree.getByRole('treeitem', { name: 'notes.md' }).boundingBox()
  expect(rowBox?.height).toBeGreaterThanOrEqual(32)

  // And it passes the same accessibility audit as the desktop workbench.
  const { violations } = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze()
  expect(
    violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
  ).toEqual([])
})
