import type { Page } from '@playwright/test'
import { EditorPage } from './pages/EditorPage'
import { ExplorerPage } from './pages/ExplorerPage'
import { SourceControlPage } from './pages/SourceControlPage'
import { WorkbenchPage } from './pages/WorkbenchPage'
import { runInSandbox } from './runtimeProcess'
import { SandboxFiles } from './sandboxFiles'
import { expect, test } from './sharedContext'
import { stackForThisFile } from './stack'

// The Source Control view against the real stack and the real git in the sandbox: the home
// folder made a repository, its changes listed and compared, a commit, a discard, and a bare
// repository in the sandbox as the remote to push to and pull from. What git did is read back
// through the runtime, as another client of the sandbox would.

const stack = stackForThisFile()
test.describe.configure({ mode: 'serial' })

const home = '/home/user'
let files: SandboxFiles
/** Runs a bash script in the home folder; its stdout. */
const sh = async (script: string) => (await runInSandbox(stack, files.sandboxId, script)).stdout

test.beforeAll(async () => {
  files = await SandboxFiles.of(stack)
  // Git would otherwise make up an author from the sandbox's user and host names (or not, by
  // host): with this it asks, and the view asks the user.
  await sh('git config --global user.useConfigOnly true')
})

async function openView(page: Page): Promise<SourceControlPage> {
  await new WorkbenchPage(page).goto(stack.link())
  const scm = new SourceControlPage(page)
  await scm.show()
  return scm
}

test('a folder that is no repository is offered Initialize Repository, which makes it one', async ({
  page,
}) => {
  const scm = await openView(page)
  await expect(scm.view).toContainText(`The folder ${home} is not a git repository`)
  // Ctrl+Shift+G gave the keyboard to the view.
  await expect(scm.button('Initialize Repository')).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(scm.branch).toContainText('(no commits yet)')
  expect(await sh('git rev-parse --show-toplevel')).toBe(`${home}\n`)
})

test('the view lists a modified and an untracked file, and a click shows the change beside the index', async ({
  page,
}) => {
  await files.write(`${home}/.gitignore`, '.*\n!.gitignore\n')
  await files.write(`${home}/notes.txt`, 'one\ntwo\nthree\n')
  await sh('git add -A && git -c user.name=Setup -c user.email=setup@example.com commit -qm base')
  await files.write(`${home}/notes.txt`, 'one\nTWO\nthree\n')
  await files.write(`${home}/new.txt`, 'a new file\n')

  const scm = await openView(page)
  const modified = scm.change('notes.txt', 'Modified')
  await expect(scm.group('Changes')).toBeVisible()
  await expect(modified).toBeVisible()
  await expect(scm.group('Untracked Changes')).toBeVisible()
  await expect(scm.change('new.txt', 'Untracked')).toBeVisible()

  await modified.click()
  const editor = new EditorPage(page)
  await expect(editor.diff).toBeVisible()
  await expect(editor.area.locator('.diff-labels')).toContainText('Index (read-only)')
  await expect(editor.diff.locator('.editor.original .view-lines')).toContainText('two')
  await expect(editor.diff.locator('.editor.modified .view-lines')).toContainText('TWO')
  await expect(editor.tab('notes.txt')).toHaveAccessibleName('notes.txt (modified)')

  // The file alone again: the gutter marks the changed line against HEAD.
  await editor.area.getByRole('button', { name: 'Close comparison' }).click()
  await editor.editable()
  await expect(editor.editor.locator('.dirty-diff-modified')).not.toHaveCount(0)

  // The explorer (Ctrl+Shift+E shows it again) colours both.
  await page.keyboard.press('Control+Shift+E')
  const explorer = new ExplorerPage(page)
  await expect(explorer.item('notes.txt')).toHaveAttribute('data-git', 'M')
  await expect(explorer.item('new.txt')).toHaveAttribute('data-git', '?')
})

test('a commit made in the view (staging everything, the author asked once) is in git log', async ({
  page,
}) => {
  const scm = await openView(page)
  await expect(scm.message).toBeFocused()
  await page.keyboard.type('Change the notes from the IDE')
  await page.keyboard.press('Control+Enter')

  const stageAll = scm.dialog('Nothing is staged')
  await expect(stageAll).toBeVisible()
  await stageAll.getByRole('button', { name: 'Stage All and Commit' }).click()
  const author = scm.dialog('Who is committing?')
  await expect(author).toBeVisible()
  await author.getByRole('textbox', { name: 'Name' }).fill('Ada Lovelace')
  await author.getByRole('textbox', { name: 'Email' }).fill('ada@example.com')
  await author.getByRole('button', { name: 'Save and Commit' }).click()

  // The commit, then the status read again: on a loaded machine (the whole suite) more than 5 s.
  await expect(scm.view).toContainText('No changes', { timeout: 20_000 })
  await expect(scm.message).toHaveValue('')
  expect(await sh('git log -1 --format="%s|%an <%ae>" && git show --name-only --format= HEAD')).toBe(
    'Change the notes from the IDE|Ada Lovelace <ada@example.com>\nnew.txt\nnotes.txt\n',
  )
})

test('discard asks first, then gives the file its committed text back', async ({ page }) => {
  await files.write(`${home}/notes.txt`, 'scribbles\n')
  const scm = await openView(page)
  const row = scm.change('notes.txt', 'Modified')
  await expect(row).toBeVisible()
  await scm.rowAction(row, 'Discard Changes')
  const ask = scm.dialog('Discard changes?')
  await expect(ask).toBeVisible()
  await expect(ask.getByRole('button', { name: 'Cancel' })).toBeFocused()
  await ask.getByRole('button', { name: 'Discard', exact: true }).click()
  await expect(row).toBeHidden()
  expect(await files.read(`${home}/notes.txt`)).toBe('one\nTWO\nthree\n')
})

test('push to a bare repository in the sandbox, and pull what another clone pushed there', async ({
  page,
}) => {
  await sh('git init -q --bare /tmp/remote.git && git remote add origin /tmp/remote.git')
  const scm = await openView(page)
  await scm.button('Push').click()
  await expect
    .poll(() => sh('git --git-dir=/tmp/remote.git log -1 --format=%s').catch(() => ''))
    .toBe('Change the notes from the IDE\n')
  await expect(scm.branch).toContainText('↑0 ↓0')

  const branch = (await sh('git branch --show-current')).trim()
  await sh(`git clone -q -b ${branch} /tmp/remote.git /tmp/clone && cd /tmp/clone && echo pulled > pulled.txt \
&& git add . && git -c user.name=Other -c user.email=other@example.com commit -qm "From another clone" && git push -q`)
  await scm.button('Pull').click()
  await expect.poll(() => files.read(`${home}/pulled.txt`).catch(() => '')).toBe('pulled\n')
  expect(await sh('git log -1 --format=%s')).toBe('From another clone\n')
})
