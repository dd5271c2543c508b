import { get } from 'node:http'
import { expect, type FrameLocator, type Page } from '@playwright/test'
import type { LocalStack } from '../stack'
import { readTerminalText } from './WorkbenchPage'

/** An event the IDE sent the parent, as the test page records it. */
export interface RecordedEvent {
  event: string
  data: Record<string, unknown>
}

/**
 * A page on another origin than the IDE that embeds it: the stack's own demo page, or a test
 * page served at an origin of our choosing (Playwright answers for it). The IDE in its iframe is
 * `ide`; `events()` are what the IDE told the parent.
 */
export class EmbedParentPage {
  readonly ide: FrameLocator

  constructor(
    readonly page: Page,
    private readonly stack: LocalStack,
  ) {
    this.ide = page.frameLocator('iframe#ide')
  }

  /** The stack's demo page's origin (on its embed allowlist, not trusted). */
  get demoOrigin(): string {
    return `http://embed-demo.localhost:${this.stack.port}`
  }

  /** The stack's own example (examples/embed), waiting until its IDE is ready. */
  async gotoDemo(): Promise<void> {
    await this.page.goto(this.stack.link('/', this.demoOrigin))
    // The first visit boots the sandbox's shell and loads the IDE.
    await expect(this.page.getByRole('log', { name: 'Events' })).toContainText('ready', { timeout: 30_000 })
  }

  /**
   * A test page at `origin` with the IDE at `/embed?{query}` in an iframe, connected with the
   * typed client (window.embedded) to the default sandbox. `connect: false` leaves the handshake to the test.
   */
  async gotoTestParent(
    query: string,
    { origin = this.demoOrigin, connect = true, allow = '', fill = false } = {},
  ): Promise<void> {
    // `fill`: the IDE takes the whole page, laid out for the device's width, as a phone shows it.
    const frameStyle = fill
      ? 'position:fixed;inset:0;width:100%;height:100%;border:0'
      : 'width:1200px;height:700px'
    const url = `${origin}/test-parent.html`
    // The typed client and the sandbox come from the demo site, as if this origin served them;
    // the session always does, fetched with the IDE's token (this page never signed in).
    for (const [path, contentType] of [
      ['/embed-client.js', 'text/javascript'],
      ['/session', 'application/json'],
    ] as const)
      if (origin !== this.demoOrigin || path === '/session')
        await this.page.route(`${origin}${path}`, async (route) =>
          route.fulfill({ contentType, body: await this.fromDemo(path) }),
        )
    await this.page.route(url, (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: `<!doctype html><html lang="en"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Parent</title>
<iframe id="ide" title="Sandbox IDE" allow="${allow}" style="${frameStyle}" src="${this.stack.url}/embed?${query}"></iframe>
<script type="module">
  window.events = []
  window.addEventListener('message', (e) => { if (e.data?.type === 'sandbox-ide:hello') window.helloFrom = e.origin })
  if (${connect}) {
    const { connectIde } = await import('/embed-client.js')
    const session = await (await fetch('/session')).json()
    const ide = await connectIde(document.getElementById('ide'), session)
    for (const event of ['ready', 'fileSaved', 'processExited', 'stateChanged', 'portOpened', 'portClosed'])
      ide.on(event, (data) => window.events.push({ event, data }))
    window.embedded = ide
  }
</script>`,
      }),
    )
    await this.page.goto(url)
    if (connect) await this.page.waitForFunction(() => 'embedded' in window)
  }

  /** A file of the demo site, fetched from Node (which cannot resolve *.localhost) by its Host, as a tool signed in with the IDE's token. */
  private fromDemo(path: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const headers = {
        host: new URL(this.demoOrigin).host,
        'sec-fetch-site': 'same-origin',
        authorization: `Bearer ${this.stack.ideToken}`,
      }
      get({ host: '127.0.0.1', port: this.stack.port, path, headers }, (res) => {
        let body = ''
        res.setEncoding('utf8')
        res.on('data', (chunk) => {
          body += chunk
        })
        res.on('end', () => resolve(body))
      }).on('error', reject)
    })
  }

  /** Calls a method of the connected client in the page; resolves with its result or `{ error }`. */
  async call(method: string, ...args: unknown[]): Promise<unknown> {
    await this.start(method, ...args)
    return this.pending()
  }

  /** Starts a call without waiting (one that waits for the user, such as runCommand). */
  async start(method: string, ...args: unknown[]): Promise<void> {
    await this.page.evaluate(
      ({ method, args }) => {
        // biome-ignore lint/suspicious/noExplicitAny: the client lives in the page, untyped here
        const w = window as any
        w.pending = w.embedded[method](...args).then(
          (result: unknown) => ({ result }),
          (err: { code?: string; message: string }) => ({ error: { code: err.code, message: err.message } }),
        )
      },
      { method, args },
    )
  }

  /** The result of the call `start` began. */
  pending(): Promise<unknown> {
    // biome-ignore lint/suspicious/noExplicitAny: the client lives in the page, untyped here
    return this.page.evaluate(() => (window as any).pending)
  }

  /** Events the IDE sent so far. */
  events(): Promise<RecordedEvent[]> {
    // biome-ignore lint/suspicious/noExplicitAny: the client lives in the page, untyped here
    return this.page.evaluate(() => (window as any).events)
  }

  /** The text of the IDE's visible terminal (the documented test hook, e2e/README.md). */
  terminalText(): Promise<string> {
    return readTerminalText(this.ide.getByTestId('terminal-text').last())
  }

  /** The consent dialog in the IDE. */
  get consent() {
    return this.ide.getByRole('alertdialog', { name: 'Run this command?' })
  }
}
