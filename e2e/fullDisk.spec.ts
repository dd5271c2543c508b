import { EditorPage } from './pages/EditorPage'
import { ExplorerPage } from './pages/ExplorerPage'
import { WorkbenchPage } from './pages/WorkbenchPage'
import { runInSandbox } from './runtimeProcess'
import { SandboxFiles } from './sandboxFiles'
import { expect, test } from './sharedContext'
import { stackForThisFile } from './stack'

// A full home loses nothing (issue 44): a save or an upload that runs out of room says so, the
// file on disk keeps its old text, the editor keeps the new one unsaved, and nothing half-written
// or temporary is left. The home is really full: the default sandbox's home is a small ext4 file
// system of its own (`--sandbox-disk`), filled from inside the sandbox as a program would fill it.

const stack = stackForThisFile(['--sandbox-disk', '128'])
test.describe.configure({ mode: 'serial' })

const home = '/home/user'
let files: SandboxFiles
/** Runs a bash script in the home folder; its stdout. */
const sh = async (script: string) => (await runInSandbox(stack, files.sandboxId, script)).stdout

/** The IDE's words for a full disk, with the free space the runtime tells. */
const noSpace = /No space left in the sandbox \(\d+(\.\d)? MB free\)/

/**
 * Fills the home to its last byte: `fallocate` takes what statfs says is free at once (the image
 * on the host stays sparse), zeros take whatever is left. Returns the bytes free after (0).
 */
async function fillHome(): Promise<number> {
  const free = await sh(`
    fallocate -l $(( $(stat -f -c '%a * %S' .) )) .fill-a 2>/dev/null || true
    head -c 200M /dev/zero >> .fill-b 2>/dev/null || true
    echo $(( $(stat -f -c '%a * %S' .) ))
  `)
  return Number(free.trim())
}

const freeHome = () => sh('rm -f .fill-a .fill-b')

/** Upload temporaries the runtime would have left behind (hidden names beside their targets). */
const temporaries = () => sh('find . -name ".e2b-upload-*" -print')

let bounded = false
test.beforeAll(async () => {
  files = await SandboxFiles.of(stack)
  const info = (await (await stack.ideApi('GET', '/stack')).json()) as { disk: { kind: string } }
  bounded = info.disk.kind === 'ext4-image'
})
/** Without a file system of its own the home is the host's disk, which these must never fill. */
const skipUnbounded = () => test.skip(!bounded, 'sandboxes have no bounded home on this machine (needs root)')

test('a save into a full home says so, keeps the old file and the unsaved text; once freed, Ctrl+S saves', async ({
  page,
}) => {
  skipUnbounded()
  await files.write(`${home}/notes.txt`, 'the old text\n')
  const wb = new WorkbenchPage(page)
  await wb.goto(stack.link())
  const editor = new EditorPage(page)
  await editor.open(`${home}/notes.txt`)
  await editor.editable()

  expect(await fillHome()).toBeLessThan(64 * 1024)
  try {
    await editor.typeAtEnd('typed while the disk was full')
    await expect(editor.tab('notes.txt')).toHaveAccessibleName('notes.txt (unsaved)')
    await editor.save()
    const notice = page
      .getByRole('region', { name: 'Notifications' })
      .getByRole('alert')
      .filter({ hasText: 'No space left in the sandbox' })
    await expect(notice).toContainText(`Saving ${home}/notes.txt failed`)
    await expect(notice).toContainText(noSpace)
    // The disk keeps the old file whole; the editor keeps the new text, still unsaved.
    expect(await files.read(`${home}/notes.txt`)).toBe('the old text\n')
    await expect(editor.tab('notes.txt')).toHaveAccessibleName('notes.txt (unsaved)')
    expect(await editor.text()).toContain('typed while the disk was full')
    expect(await temporaries()).toBe('')
  } finally {
    await freeHome()
  }

  // Room again: the same Ctrl+S saves, with no conflict (the file was never touched).
  await editor.editor.locator('.view-lines').click()
  await editor.save()
  await expect(editor.tab('notes.txt')).toHaveAccessibleName('notes.txt')
  expect(await files.read(`${home}/notes.txt`)).toBe('the old text\ntyped while the disk was full')
  await expect(editor.alert).toHaveCount(0)
})

test('an upload into a full home says so in the upload list and leaves nothing behind', async ({ page }) => {
  skipUnbounded()
  const wb = new WorkbenchPage(page)
  const explorer = new ExplorerPage(page)
  await wb.goto(stack.link())

  expect(await fillHome()).toBeLessThan(64 * 1024)
  try {
    const drop = await page.evaluateHandle(() => {
      const data = new DataTransfer()
      data.items.add(new File([new Uint8Array(2 * 1024 * 1024).fill(97)], 'too-big.bin'))
      return data
    })
    await explorer.tree.dispatchEvent('drop', { dataTransfer: drop })
    const uploads = page.getByRole('region', { name: 'Uploads' })
    await expect(uploads.getByRole('alert')).toContainText(noSpace, { timeout: 20_000 })
    expect(await files.stat(`${home}/too-big.bin`)).toBeUndefined()
    expect(await temporaries()).toBe('')
    await expect(explorer.item('too-big.bin')).toBeHidden()
  } finally {
    await freeHome()
  }
})
