// Hot exit: unsaved text kept in the browser comes back after the tab is lost without a chance to
// ask (its renderer crashed), and a disk that changed meanwhile is offered beside it, never
// overwritten either way. Firefox and WebKit run the same flow in e2e/engines/coreFlows.ts.
import { type BrowserContext, expect, type Page, test } from '@playwright/test'
import { EditorPage } from './pages/EditorPage'
import { WorkbenchPage } from './pages/WorkbenchPage'
import { SandboxFiles } from './sandboxFiles'
import { stackForThisFile } from './stack'

test.describe.configure({ mode: 'serial' })

const stack = stackForThisFile()
let files: SandboxFiles
const home = '/home/user'

test.beforeAll(async () => {
  files = await SandboxFiles.of(stack)
})

/** Everything in one store of the browser's backups (IndexedDB), read as the next page will. */
const backupStore = (page: Page, store: 'meta' | 'texts') =>
  page.evaluate(
    (name) =>
      new Promise<unknown[]>((resolve, reject) => {
        const open = indexedDB.open('sandbox-ide-backups')
        open.onerror = () => reject(open.error)
        open.onsuccess = () => {
          const db = open.result
          if (!db.objectStoreNames.contains(name)) return resolve([])
          const all = db.transaction(name).objectStore(name).getAll()
          all.onsuccess = () => resolve(all.result)
        }
      }),
    store,
  )

/** The paths the browser keeps unsaved text for. */
const backedUp = async (page: Page) =>
  ((await backupStore(page, 'meta')) as { path: string }[]).map((m) => m.path)

/** The unsaved texts the browser keeps. */
const backedUpTexts = async (page: Page) => (await backupStore(page, 'texts')) as string[]

/** Kills the page's renderer, as a browser crash does: no beforeunload, no pagehide. */
async function crash(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page)
  // The answer never comes: the page is gone.
  void cdp.send('Page.crash').catch(() => {})
  await expect.poll(() => page.evaluate(() => 1).catch(() => 'crashed')).toBe('crashed')
}

async function openEdited(context: BrowserContext, path: string, typed: string): Promise<Page> {
  const page = await context.newPage()
  await new WorkbenchPage(page).goto(stack.link())
  const editor = new EditorPage(page)
  await editor.open(path)
  await editor.editable()
  await editor.typeAtEnd(typed)
  await expect(editor.tab(path.slice(path.lastIndexOf('/') + 1))).toHaveAccessibleName(/\(unsaved\)$/)
  // Kept within a second of typing: the path, and the text up to the last key.
  await expect.poll(() => backedUp(page), { timeout: 2_000 }).toContain(path)
  await expect
    .poll(async () => (await backedUpTexts(page)).some((text) => text.endsWith(typed)), { timeout: 2_000 })
    .toBe(true)
  return page
}

test('unsaved text comes back after the tab crashed: the file reopens unsaved, and Ctrl+S saves it', async ({
  context,
}) => {
  const path = `${home}/hot.py`
  await files.write(path, 'x = 1\n')
  const lost = await openEdited(context, path, 'y = 2')
  await crash(lost)

  const page = await context.newPage()
  await new WorkbenchPage(page).goto(stack.link())
  const editor = new EditorPage(page)
  await expect(editor.tab('hot.py')).toHaveAccessibleName('hot.py (unsaved)')
  await expect(page.getByRole('region', { name: 'Notifications' })).toContainText(
    'Restored unsaved changes to /home/user/hot.py',
  )
  await editor.tab('hot.py').click()
  await editor.editable()
  expect(await editor.text()).toBe('x = 1\ny = 2')
  expect(await files.read(path)).toBe('x = 1\n')
  await editor.editor.locator('.view-lines').click()
  await editor.save()
  await expect(editor.tab('hot.py')).toHaveAccessibleName('hot.py')
  expect(await files.read(path)).toBe('x = 1\ny = 2')
  await expect.poll(() => backedUp(page)).not.toContain(path)
})

test('a file changed on disk while the tab was lost: both texts are offered, neither overwritten', async ({
  context,
}) => {
  const path = `${home}/moved-on.txt`
  await files.write(path, 'base\n')
  const lost = await openEdited(context, path, 'mine')

  // Another tab, alive, does not take the backups of one that is still open.
  const other = await context.newPage()
  await new WorkbenchPage(other).goto(stack.link())
  await expect(other.getByRole('region', { name: 'Notifications' })).not.toContainText('Restored')
  await expect(new EditorPage(other).tab('moved-on.txt')).toHaveCount(0)
  await other.close()

  await crash(lost)
  await files.write(path, 'base\ntheirs\n')
  const page = await context.newPage()
  await new WorkbenchPage(page).goto(stack.link())
  const editor = new EditorPage(page)
  await editor.tab('moved-on.txt').click()
  await expect(editor.alert).toContainText('moved-on.txt changed on disk while you have unsaved changes')
  await editor.editable()
  expect(await editor.text()).toBe('base\nmine')
  expect(await files.read(path)).toBe('base\ntheirs\n')
  // Compare shows the disk's text beside mine; Keep mine, then a save, writes mine.
  await editor.bannerButton('Compare').click()
  await expect(editor.diff.locator('.editor.original')).toContainText('theirs')
  await expect(editor.diff.locator('.editor.modified')).toContainText('mine')
  await editor.bannerButton('Close compare').click()
  await editor.bannerButton('Keep mine').click()
  await expect(editor.alert).toHaveCount(0)
  await editor.editor.locator('.view-lines').click()
  await editor.save()
  await expect.poll(() => files.read(path)).toBe('base\nmine')
})
