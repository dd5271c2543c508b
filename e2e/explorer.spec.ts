import { ExplorerPage } from './pages/ExplorerPage'
import { WorkbenchPage } from './pages/WorkbenchPage'
import { SandboxFiles } from './sandboxFiles'
import { expect, test } from './sharedContext'
import { stackForThisFile } from './stack'

test.describe.configure({ mode: 'serial' })

const stack = stackForThisFile()
let files: SandboxFiles
const home = '/home/user'
test.beforeAll(async () => {
  files = await SandboxFiles.of(stack)
})

test('creates, renames, moves and deletes through the UI, each checked on disk', async ({ page }) => {
  const wb = new WorkbenchPage(page)
  const explorer = new ExplorerPage(page)
  await wb.goto(stack.link())

  await explorer.toolbar('New folder')
  await explorer.name('docs')
  await expect(explorer.item('docs')).toBeVisible()
  expect((await files.stat(`${home}/docs`))?.type).toBe('FILE_TYPE_DIRECTORY')

  await explorer.tree.focus()
  await page.keyboard.press('Home')
  await explorer.toolbar('New file')
  await explorer.name('notes.md')
  await expect(explorer.item('notes.md')).toBeVisible()
  expect((await files.stat(`${home}/docs/notes.md`))?.type).toBe('FILE_TYPE_FILE')

  // Rename with F2, then move by dragging onto the home folder's empty space.
  await explorer.select('notes.md')
  await page.keyboard.press('F2')
  await explorer.name('readme.md')
  await expect(explorer.item('readme.md')).toBeVisible()
  expect(await files.stat(`${home}/docs/notes.md`)).toBeUndefined()
  expect(await files.stat(`${home}/docs/readme.md`)).toBeDefined()

  await files.write(`${home}/target/.keep`, '')
  await expect(explorer.item('target')).toBeVisible()
  await explorer.item('readme.md').dragTo(explorer.item('target'))
  await expect.poll(() => files.stat(`${home}/target/readme.md`)).toBeDefined()
  expect(await files.stat(`${home}/docs/readme.md`)).toBeUndefined()

  await explorer.select('docs')
  await page.keyboard.press('Delete')
  await explorer.confirmDelete()
  await expect(explorer.item('docs')).toBeHidden()
  expect(await files.stat(`${home}/docs`)).toBeUndefined()
})

test('uploads files dropped from the desktop, intact, with progress', async ({ page }) => {
  const wb = new WorkbenchPage(page)
  const explorer = new ExplorerPage(page)
  await wb.goto(stack.link())
  const big = 'x'.repeat(3 * 1024 * 1024)
  const drop = await page.evaluateHandle((bigText) => {
    const data = new DataTransfer()
    data.items.add(new File(['hello upload'], 'small.txt'))
    data.items.add(new File([bigText], 'big.bin'))
    return data
  }, big)
  await explorer.tree.dispatchEvent('drop', { dataTransfer: drop })
  const uploads = page.getByRole('region', { name: 'Uploads' })
  await expect(uploads).toContainText('big.bin')
  await expect(uploads.getByText('uploaded')).toHaveCount(2, { timeout: 20_000 })
  expect(await files.read(`${home}/small.txt`)).toBe('hello upload')
  expect((await files.read(`${home}/big.bin`)).length).toBe(big.length)
  await expect(explorer.item('big.bin')).toBeVisible()
})

test('shows changes made in a terminal, including a burst of exactly 1,000 files', async ({ page }) => {
  const wb = new WorkbenchPage(page)
  const explorer = new ExplorerPage(page)
  await wb.goto(stack.link())
  await wb.run('mkdir -p burst live/inner && touch from-terminal.txt && echo ok-$((1+1))', 'ok-2')
  await expect(explorer.item('from-terminal.txt')).toBeVisible()
  await explorer.item('live').click()
  await expect(explorer.item('inner')).toBeVisible()
  await wb.run('rm from-terminal.txt && echo rm-$((2+2))', 'rm-4')
  await expect(explorer.item('from-terminal.txt')).toBeHidden()

  await explorer.item('burst').click()
  await wb.run('for i in $(seq 1 1000); do : > burst/f$i; done; echo burst-$((3*3))', 'burst-9')
  // Rows are virtualized: every child row says how many siblings it has.
  await expect(explorer.item('f1')).toHaveAttribute('aria-setsize', '1000')
  await expect(explorer.item('f1')).toHaveAttribute('aria-level', '2')
})

test('hostile names render as text and round-trip through rename and delete', async ({ page }) => {
  const wb = new WorkbenchPage(page)
  const explorer = new ExplorerPage(page)
  const names = [
    'my file.txt',
    'ünïcödé.txt',
    '"quoted".txt',
    '<img src=x onerror=alert(1)>.txt',
    '-dash.txt',
    'new\nline.txt',
  ]
  for (const name of names) await files.write(`${home}/odd/${name}`, name)
  await wb.goto(stack.link())
  await explorer.item('odd').click()
  for (const name of names) await expect(explorer.item(name)).toBeVisible()
  expect(await page.locator('img[src=x]').count()).toBe(0)
  await expect(explorer.tree.getByText('new⏎line.txt')).toBeVisible()

  await explorer.select('<img src=x onerror=alert(1)>.txt')
  await page.keyboard.press('F2')
  await explorer.name('<b>still & text>.txt')
  await expect(explorer.item('<b>still & text>.txt')).toBeVisible()
  expect(await files.read(`${home}/odd/<b>still & text>.txt`)).toBe('<img src=x onerror=alert(1)>.txt')

  await explorer.select('new\nline.txt')
  await page.keyboard.press('Delete')
  await explorer.confirmDelete()
  await expect(explorer.item('new\nline.txt')).toBeHidden()
  expect(await files.stat(`${home}/odd/new\nline.txt`)).toBeUndefined()
})

test('keyboard: arrows, Enter, type-to-find; errors show the server’s message', async ({ page }) => {
  const wb = new WorkbenchPage(page)
  const explorer = new ExplorerPage(page)
  await files.write(`${home}/kb/alpha.txt`, 'a')
  await files.write(`${home}/kb/beta.txt`, 'b')
  await wb.goto(stack.link())
  await explorer.select('kb')
  await page.keyboard.press('ArrowRight')
  await expect(explorer.item('alpha.txt')).toBeVisible()
  await page.keyboard.type('bet')
  await expect(explorer.item('beta.txt')).toHaveAttribute('aria-selected', 'true')
  await page.keyboard.press('ArrowLeft')
  await expect(explorer.item('kb')).toHaveAttribute('aria-selected', 'true')
  await page.keyboard.press('ArrowLeft')
  await expect(explorer.item('alpha.txt')).toBeHidden()

  // A folder named like an existing file: the runtime's own words reach the user.
  await page.keyboard.press('ArrowRight')
  await page.keyboard.press('ArrowDown')
  await explorer.toolbar('New folder')
  await explorer.name('beta.txt')
  await expect(page.getByRole('alert').filter({ hasText: 'already exists' })).toBeVisible()
})
