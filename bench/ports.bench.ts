import { chromium, type Page } from '@playwright/test'
import { chromiumLaunchOptions } from '../e2e/chromium'
import { signalRuntimeProcess, startRuntimeProcess } from '../e2e/runtimeProcess'
import { SandboxFiles } from '../e2e/sandboxFiles'
import { freePort, LocalStack } from '../e2e/stack'
import { type Figure, median, percentile } from './table'

const port = 8000
const tries = 20

/**
 * A server that says when it began to listen (its clock is the page's: one machine), and whose
 * page tells the IDE's page when it has painted (a frame after load), never from a cache.
 */
const server = `import http.server, time
class Page(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = ('<h1>bench</h1><script>requestAnimationFrame(() => requestAnimationFrame(() =>'
                ' parent.postMessage({ listenedAt: %d, paintedAt: Date.now() }, "*")))</script>' % listened).encode()
        self.send_response(200)
        self.send_header('Content-Type', 'text/html')
        self.send_header('Cache-Control', 'no-store')
        self.send_header('Content-Length', str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def log_message(self, *args):
        pass
server = http.server.ThreadingHTTPServer(('0.0.0.0', ${port}), Page)
listened = int(time.time() * 1000)
server.serve_forever()
`

/**
 * Ports figures (issue 19), in headless Chromium against the real stack: a server starts in the
 * sandbox while the IDE shows its Ports panel and a preview of the (closed) port; from the moment
 * it listens to its row in the panel, and to the preview's first paint of its page.
 */
export async function portsFigures(): Promise<Figure[]> {
  const stack = new LocalStack(await freePort())
  await stack.start()
  const browser = await chromium.launch(chromiumLaunchOptions())
  try {
    const files = await SandboxFiles.of(stack)
    await files.write('/home/user/bench_server.py', server)
    const start = () =>
      startRuntimeProcess(stack, files.sandboxId, { process: { cmd: 'python3', args: ['bench_server.py'] } })
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
    // tsx names functions with an __name() helper; code sent to page.evaluate runs without it.
    await page.addInitScript('globalThis.__name = (f) => f')
    await page.goto(stack.link())
    const row = page.getByRole('region', { name: 'Ports' }).getByRole('listitem', { name: `Port ${port}` })
    let running = await start()
    await row.getByRole('button', { name: 'Preview' }).click()
    const preview = page.getByRole('region', { name: `Preview of port ${port}` })
    await preview.waitFor()
    const toRow: number[] = []
    const toPaint: number[] = []
    for (let i = 0; i < tries; i++) {
      await signalRuntimeProcess(stack, files.sandboxId, running.pid, 'SIGNAL_SIGKILL')
      await running.ended.catch(() => {})
      await row.waitFor({ state: 'hidden' })
      await preview
        .getByRole('status')
        .filter({ hasText: `Port ${port} is closed` })
        .waitFor()
      // At a random moment of the panel's look cycle, as a user's server would start.
      await new Promise((r) => setTimeout(r, Math.random() * 1000))
      const seen = watchRowAndPaint(page)
      // Awaited below; a failure meanwhile must not go unhandled.
      seen.catch(() => {})
      running = await start()
      const { listenedAt, rowAt, paintedAt } = await seen
      toRow.push(rowAt - listenedAt)
      toPaint.push(paintedAt - listenedAt)
    }
    await signalRuntimeProcess(stack, files.sandboxId, running.pid, 'SIGNAL_SIGKILL')
    const note = (samples: number[]) => `p95 ${percentile(samples, 95).toFixed(0)} ms`
    return [
      {
        name: 'port opened to its row in the Ports panel',
        median: median(toRow),
        unit: 'ms',
        runs: tries,
        note: `${note(toRow)}; goal under 1 s`,
      },
      {
        name: 'port opened to first paint in its preview',
        median: median(toPaint),
        unit: 'ms',
        runs: tries,
        note: `${note(toPaint)}; goal under 1.5 s; the preview waited on the closed port`,
      },
    ]
  } finally {
    await browser.close()
    await stack.dispose()
  }
}

/** In the page: when the port's row shows, and what the previewed page says of its listen and paint. */
function watchRowAndPaint(page: Page): Promise<{ listenedAt: number; rowAt: number; paintedAt: number }> {
  return page.evaluate(
    (label) =>
      new Promise((resolve, reject) => {
        let rowAt = 0
        const deadline = Date.now() + 30_000
        const look = () => {
          if (!rowAt && document.querySelector(`[aria-label="Ports"] [aria-label="${label}"]`))
            rowAt = Date.now()
          if (Date.now() > deadline) reject(new Error('the port never showed'))
          else requestAnimationFrame(look)
        }
        look()
        const painted = (event: MessageEvent) => {
          const data = event.data as { listenedAt?: number; paintedAt?: number }
          if (typeof data?.paintedAt !== 'number' || typeof data.listenedAt !== 'number') return
          window.removeEventListener('message', painted)
          // The row shows before the paint as a rule; wait for it if not.
          const settle = () =>
            rowAt
              ? resolve({ listenedAt: data.listenedAt as number, rowAt, paintedAt: data.paintedAt as number })
              : setTimeout(settle, 5)
          settle()
        }
        window.addEventListener('message', painted)
      }),
    `Port ${port}`,
  )
}
