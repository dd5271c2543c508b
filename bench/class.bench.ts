import { endClass, numberedStudents, startClass } from '../server/class/classroom'
import { runBash } from '../server/platform/launcher/testing/sandboxCalls'
import { startTestPlatform } from '../server/platform/testing/platformFixture'
import { runtimePort } from '../server/platform/testing/runtimeBridge'
import { treeRss } from './platform.bench'
import { type Figure, median } from './table'

const students = 20
const rounds = 3
const mib = 1024 * 1024

/** A class of 20 from labs/python-basics, created at once through the platform API (issue 8). */
export async function classFigures(): Promise<Figure[]> {
  const tp = await startTestPlatform({ maxSandboxes: students + 5 })
  const access = { url: tp.url, apiKey: tp.apiKey }
  const wall: number[] = []
  const perSandbox: number[] = []
  const checkAll: number[] = []
  const rss: number[] = []
  try {
    for (let round = 0; round < rounds; round++) {
      const className = `bench-${round}`
      const started = performance.now()
      // One request per student, all at once, each timed to its own answer.
      const made = await Promise.all(
        numberedStudents(students).map(async (student) => {
          const t = performance.now()
          const { sandboxes, failures } = await startClass(access, {
            className,
            template: 'python-basics',
            students: [student],
            timeoutSeconds: 600,
          })
          if (failures[0]) throw new Error(failures[0].error)
          perSandbox.push(performance.now() - t)
          return sandboxes[0]?.sandboxId as string
        }),
      )
      wall.push(performance.now() - started)
      const addresses = await Promise.all(
        made.map(async (id) => {
          const route = tp.platform.manager.route(id)
          if (route.kind !== 'running') throw new Error(`sandbox ${id} is ${route.kind}`)
          return { port: await runtimePort(route.runtime), token: route.runtime.accessToken }
        }),
      )
      const t = performance.now()
      await Promise.all(
        addresses.map((a) => runBash(a, 'cd ~ && python3 -B -m unittest discover -s tests -q')),
      )
      checkAll.push(performance.now() - t)
      await new Promise((r) => setTimeout(r, 500))
      let total = 0
      for (const id of made) total += treeRss(tp.platform.manager.launchedPid(id) ?? 0)
      rss.push(total / students / mib)
      await endClass(access, className)
    }
  } finally {
    await tp.close()
  }
  const at = `${students} at once`
  return [
    {
      name: `class: create ${students} sandboxes (wall clock)`,
      median: median(wall),
      unit: 'ms',
      runs: rounds,
    },
    {
      name: `class: one create, answered (${at})`,
      median: median(perSandbox),
      unit: 'ms',
      runs: perSandbox.length,
    },
    {
      name: `class: the lab check in all ${students} (wall clock)`,
      median: median(checkAll),
      unit: 'ms',
      runs: rounds,
    },
    {
      name: `class: memory per idle sandbox (${at})`,
      median: median(rss),
      unit: 'MiB RSS',
      runs: rounds,
      note: `isolation: ${tp.platform.launcher.isolation}`,
    },
  ]
}
