import { readdirSync, readFileSync } from 'node:fs'
import { startTestPlatform } from '../server/platform/testing/platformFixture'
import { envelope } from '../server/runtime/testing/wire'
import { type Figure, median } from './table'

const mib = 1024 * 1024

/** Resident memory (bytes) and CPU time used so far (s) of a process and all its descendants, from /proc. */
export function treeUse(root: number): { rss: number; cpuSeconds: number } {
  const children = new Map<number, number[]>()
  const own = new Map<number, { rss: number; cpuSeconds: number }>()
  const ticks = 100 // USER_HZ on Linux
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    try {
      const status = readFileSync(`/proc/${name}/status`, 'utf8')
      const ppid = Number(status.match(/PPid:\s+(\d+)/)?.[1])
      // utime and stime: the 14th and 15th fields, counted after the command's closing parenthesis.
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      own.set(Number(name), {
        rss: Number(status.match(/VmRSS:\s+(\d+)/)?.[1] ?? 0) * 1024,
        cpuSeconds: (Number(fields[11]) + Number(fields[12])) / ticks,
      })
      children.set(ppid, [...(children.get(ppid) ?? []), Number(name)])
    } catch {}
  }
  const total = { rss: 0, cpuSeconds: 0 }
  const stack = [root]
  while (stack.length) {
    const pid = stack.pop() as number
    total.rss += own.get(pid)?.rss ?? 0
    total.cpuSeconds += own.get(pid)?.cpuSeconds ?? 0
    stack.push(...(children.get(pid) ?? []))
  }
  return total
}

/** Resident memory of a process and all its descendants, from /proc. */
export const treeRss = (root: number): number => treeUse(root).rss

/** Platform figures (issue 4), at 1, 10 and 30 sandboxes running at once on this machine. */
export async function platformFigures(): Promise<Figure[]> {
  const stack = await startTestPlatform({
    apiKey: 'bench',
    maxSandboxes: 40,
    sandboxTimeout: 600,
    defaultSandboxTimeout: 600,
  })
  const { platform } = stack
  const { api } = stack
  const firstOutput = async (id: string, token: string) => {
    const res = await fetch(`${platform.url}/process.Process/Start`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/connect+json', 'X-Access-Token': token, 'E2b-Sandbox-Id': id },
      body: envelope(JSON.stringify({ process: { cmd: 'echo', args: ['ready'] } })),
    })
    const text = Buffer.from(await res.arrayBuffer()).toString()
    if (!text.includes('"stdout"')) throw new Error(`no output from sandbox ${id}: ${text}`)
  }

  const figures: Figure[] = []
  const sandboxes: { id: string; token: string }[] = []
  try {
    for (const target of [1, 10, 30]) {
      const createToCommand: number[] = []
      while (sandboxes.length < target) {
        const t = performance.now()
        const created = await (await api('POST', '/v2/sandboxes', {})).json()
        await firstOutput(created.sandboxID, created.envdAccessToken)
        createToCommand.push(performance.now() - t)
        sandboxes.push({ id: created.sandboxID, token: created.envdAccessToken })
      }
      const pause: number[] = []
      const resume: number[] = []
      for (const { id, token } of sandboxes.slice(-Math.min(5, sandboxes.length))) {
        let t = performance.now()
        await api('POST', `/sandboxes/${id}/pause`)
        pause.push(performance.now() - t)
        t = performance.now()
        await api('POST', `/v2/sandboxes/${id}/connect`, {})
        await firstOutput(id, token)
        resume.push(performance.now() - t)
      }
      await new Promise((r) => setTimeout(r, 500))
      let totalRss = 0
      for (const { sandboxID } of platform.manager.list()) {
        const pid = platform.manager.launchedPid(sandboxID)
        if (pid) totalRss += treeRss(pid)
      }
      const perSandbox = totalRss / sandboxes.length
      const at = `${target} running`
      figures.push(
        {
          name: `create to first command output (${at})`,
          median: median(createToCommand),
          unit: 'ms',
          runs: createToCommand.length,
        },
        { name: `pause (${at})`, median: median(pause), unit: 'ms', runs: pause.length },
        {
          name: `resume to first command output (${at})`,
          median: median(resume),
          unit: 'ms',
          runs: resume.length,
        },
        {
          name: `memory per idle sandbox (${at})`,
          median: perSandbox / mib,
          unit: 'MiB RSS',
          runs: sandboxes.length,
          note: `isolation: ${platform.launcher.isolation}, root: ${platform.launcher.root}, freezer: ${platform.launcher.freezer}`,
        },
      )
    }
  } finally {
    await stack.close()
  }
  return figures
}
