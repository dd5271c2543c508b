// The embed client as a docs site gets it: packed from packages/embed (npm pack), installed into
// the site from the tarball, bundled by the site's own build, and served from the site's origin,
// where it drives the IDE in Chromium. Nothing of the package's sources is in the way.
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { build } from 'esbuild'
import { expect, test } from './sharedContext'
import { freePort, LocalStack } from './stack'

const projectRoot = join(import.meta.dirname, '..')
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'

/** What `npm pack --json` says of the tarball it wrote. */
interface Packed {
  filename: string
  version: string
  files: { path: string }[]
}

let site: string
let packed: Packed
let docs: Server
let docsOrigin: string
let stack: LocalStack

// The docs page: the site's own script, as its author writes it, with the package installed.
const docsScript = `
import { connectIde, EmbedError } from '@sandbox-ide/embed'

const session = await (await fetch('/session')).json()
const iframe = document.getElementById('ide') as HTMLIFrameElement
const ide = await connectIde(iframe, session)
const events: { event: string; data: unknown }[] = []
for (const event of ['ready', 'fileSaved', 'processExited'] as const) ide.on(event, (data) => events.push({ event, data }))
Object.assign(window, { embedded: ide, events, EmbedError })
`

test.describe.configure({ mode: 'serial' })

test.beforeAll(async () => {
  site = mkdtempSync(join(tmpdir(), 'docs-site-'))
  // As it would be published: prepack builds dist/ from src/ first.
  const out = execFileSync(npm, ['pack', '--json', '--pack-destination', site], {
    cwd: join(projectRoot, 'packages', 'embed'),
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  packed = (JSON.parse(out) as Packed[])[0] as Packed
  writeFileSync(
    join(site, 'package.json'),
    JSON.stringify({ name: 'docs-site', private: true, type: 'module' }),
  )
  execFileSync(npm, ['install', '--no-audit', '--no-fund', '--offline', `./${packed.filename}`], {
    cwd: site,
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  writeFileSync(join(site, 'docs.ts'), docsScript)

  const docsPort = await freePort()
  docsOrigin = `http://docs.localhost:${docsPort}`
  stack = new LocalStack(undefined, ['--embed-origin', docsOrigin, '--no-default-sandbox'])
  await stack.start()
  const bundle = await build({
    entryPoints: [join(site, 'docs.ts')],
    absWorkingDir: site,
    bundle: true,
    format: 'esm',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  })
  const script = bundle.outputFiles[0]?.text ?? ''
  docs = createServer(async (req, res) => {
    if (req.url === '/session') {
      // The site's backend: makes a sandbox with its platform key, and gives the page only its runtime and token.
      const made = await stack.api('POST', '/sandboxes', { templateID: 'base', timeout: 600 })
      const { sandboxID, envdAccessToken } = (await made.json()) as {
        sandboxID: string
        envdAccessToken: string
      }
      res.writeHead(200, { 'Content-Type': 'application/json' })
      return res.end(
        JSON.stringify({
          runtimeUrl: `http://49983-${sandboxID}.localhost:${stack.port}`,
          accessToken: envdAccessToken,
        }),
      )
    }
    if (req.url === '/docs.js') {
      res.writeHead(200, { 'Content-Type': 'text/javascript' })
      return res.end(script)
    }
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' })
    res.end(`<!doctype html><html lang="en"><title>Docs</title>
<iframe id="ide" title="Sandbox IDE" style="width:1100px;height:650px" src="${stack.url}/embed?panels=editor,terminal"></iframe>
<script type="module" src="/docs.js"></script></html>`)
  })
  await new Promise<void>((resolve) => docs.listen(docsPort, '127.0.0.1', resolve))
})

test.afterAll(async () => {
  await new Promise((resolve) => docs?.close(resolve))
  await stack?.dispose()
  if (site) rmSync(site, { recursive: true, force: true })
})

test('the packed package holds its modules and their types, and no sources', () => {
  const paths = packed.files.map((f) => f.path).sort()
  expect(paths).toEqual([
    'README.md',
    'dist/client.d.ts',
    'dist/client.js',
    'dist/protocol.d.ts',
    'dist/protocol.js',
    'package.json',
  ])
  expect(packed.version).toMatch(/^\d+\.\d+\.\d+/)
})

test('its types check a docs page that uses it right, and catch one that does not', () => {
  const tsc = join(projectRoot, 'node_modules', '.bin', 'tsc')
  const check = (source: string) => {
    writeFileSync(join(site, 'typed.ts'), source)
    const args = ['--noEmit', '--strict', '--target', 'es2022', '--module', 'esnext']
    const options = [
      ...args,
      '--moduleResolution',
      'bundler',
      '--lib',
      'es2023,dom',
      '--types',
      '',
      'typed.ts',
    ]
    return spawnSync(tsc, options, { cwd: site, encoding: 'utf8' })
  }
  const good = check(`import { connectIde, type EmbeddedIde } from '@sandbox-ide/embed'
export async function run(frame: HTMLIFrameElement): Promise<number> {
  const ide: EmbeddedIde = await connectIde(frame, { runtimeUrl: 'https://49983-x.e2b.app', accessToken: null })
  ide.on('processExited', ({ exitCode }) => console.log(exitCode ?? 'killed'))
  return (await ide.runCommand('ls', { cwd: '/home/user' })).pid
}
`)
  expect(good.stdout + good.stderr).toBe('')
  expect(good.status).toBe(0)
  const bad = check(`import { connectIde } from '@sandbox-ide/embed'
export async function run(frame: HTMLIFrameElement) {
  const ide = await connectIde(frame, { runtimeUrl: 'https://49983-x.e2b.app', accessToken: null })
  await ide.runCommand(42)
}
`)
  expect(bad.status).not.toBe(0)
  expect(bad.stdout).toContain("'number' is not assignable to parameter of type 'string'")
})

test('a docs page built with the installed package drives the IDE: files, a command the user allows, events, errors', async ({
  page,
}) => {
  await page.goto(`${docsOrigin}/`)
  await page.waitForFunction(() => 'embedded' in window, undefined, { timeout: 30_000 })
  const ide = page.frameLocator('iframe#ide')

  // biome-ignore-start lint/suspicious/noExplicitAny: the client lives in the page, untyped here
  await page.evaluate(() => (window as any).embedded.writeFile('from-docs.txt', 'written by the docs page\n'))
  expect(await page.evaluate(() => (window as any).embedded.readFile('from-docs.txt'))).toBe(
    'written by the docs page\n',
  )
  await page.evaluate(() => {
    const w = window as any
    w.ran = w.embedded.runCommand('cat from-docs.txt; exit 3')
  })
  const consent = ide.getByRole('alertdialog', { name: 'Run this command?' })
  await expect(consent).toContainText('cat from-docs.txt; exit 3')
  await consent.getByRole('button', { name: 'Run', exact: true }).click()
  expect(await page.evaluate(async () => (await (window as any).ran).pid)).toBeGreaterThan(0)
  await expect(ide.getByTestId('terminal-text').last()).toContainText('written by the docs page')
  await expect
    .poll(() =>
      page.evaluate(() => (window as any).events.find((e: { event: string }) => e.event === 'processExited')),
    )
    .toMatchObject({ data: { command: 'cat from-docs.txt; exit 3', exitCode: 3 } })
  const failure = await page.evaluate(() =>
    (window as any).embedded.readFile('/no/such/file').then(
      () => 'read',
      (err: Error & { code: string }) => ({
        isEmbedError: err instanceof (window as any).EmbedError,
        code: err.code,
      }),
    ),
  )
  // biome-ignore-end lint/suspicious/noExplicitAny: the client lives in the page, untyped here
  expect(failure).toEqual({ isEmbedError: true, code: 'failed' })
})
