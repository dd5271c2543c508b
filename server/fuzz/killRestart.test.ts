// The stack killed with SIGKILL at a random moment of a busy workload (creates, saves, uploads,
// pauses, resumes, kills, join links issued and revoked), restarted on the same data folder, again
// and again. After each restart every record parses, every sandbox comes back paused with its
// processes lost, what the stack acknowledged is still there, and every saved file is the old or
// the new version, never a mix. At the end a clean stop leaves nothing behind.
// Seeded (the operations and the moments of the kills): FUZZ_SEED=n replays a run's choices;
// FUZZ_KILLS=n sets how many kills (`npm run fuzz -- --long`: 50; otherwise 3).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, describe, expect, it } from 'vitest'
import { IdeToken } from '../platform/access/ideToken'
import { releaseMountsUnder } from '../platform/disk/staleMounts'
import { ideCall } from '../platform/testing/ideCall'
import {
  leftBehind,
  lives,
  type Proc,
  processTree,
  StackProcess,
  socketsFolder,
} from '../testing/stackProcess'

const seed = Number(process.env.FUZZ_SEED ?? 20261127)
const kills = Number(process.env.FUZZ_KILLS ?? 3)
const maxSandboxes = 3

/** A small seeded generator (mulberry32): the same seed makes the same choices. */
function generator(start: number): () => number {
  let state = start >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32
  }
}

/** The files the workload saves: a small one as the editor saves it, a bigger one as an upload. */
const files = { 'doc.txt': 2_000, 'upload.bin': 40_000 } as const
type FileName = keyof typeof files

/** Version `v` of a file: one line, repeated; a file holding anything else is a mix (or damaged). */
const content = (name: FileName, v: number) =>
  `${name} version ${String(v).padStart(6, '0')}\n`.repeat(files[name])

/** Which version a file's text is, or why it is none. */
function versionOf(name: FileName, text: string): number | string {
  const line = /^.* version (\d{6})\n/.exec(text)?.[0]
  if (!line) return `not a version: ${JSON.stringify(text.slice(0, 60))}…`
  if (text !== line.repeat(files[name])) {
    const unlike = text.split('\n').filter((l) => `${l}\n` !== line).length
    return `a mix or cut short (${text.length} bytes, ${unlike} lines unlike the first)`
  }
  return Number(line.slice(-7, -1))
}

/** What the workload did to one file: the last version the stack acknowledged, and one under way. */
interface FileJournal {
  acked?: number
  pending?: number
}

interface SandboxJournal {
  token: string
  /** The stack answered its create: it must survive a kill, unless a kill of it was asked. */
  createAcked: boolean
  killAsked: boolean
  killAcked: boolean
  files: Partial<Record<FileName, FileJournal>>
  /** One operation at a time per sandbox, so "the last acknowledged version" means something. */
  queue: Promise<unknown>
}

interface LinkJournal {
  sandboxId: string
  revokeAsked: boolean
  revokeAcked: boolean
}

describe('fuzz: kill -9 at random moments of a busy workload, and restart', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'kill-restart-'))
  let stack: StackProcess | undefined
  afterAll(async () => {
    if (stack?.running) stack.signal('SIGKILL')
    await sleep(500)
    await releaseMountsUnder(dataDir).catch(() => {})
    rmSync(dataDir, { recursive: true, force: true })
  })

  const random = generator(seed)
  const pick = <T>(items: T[]): T | undefined => items[Math.floor(random() * items.length)]
  const sandboxes = new Map<string, SandboxJournal>()
  const links = new Map<string, LinkJournal>()
  let nextVersion = 1
  /** What the stack acknowledged, by kind, and how many saved files were checked: said at the end. */
  const done: Record<string, number> = {}
  const count = (what: string) => {
    done[what] = (done[what] ?? 0) + 1
  }

  const start = async (): Promise<StackProcess> => {
    const started = new StackProcess(dataDir, {
      via: 'node',
      args: ['--no-default-sandbox', '--max-sandboxes', String(maxSandboxes)],
    })
    stack = started
    await started.ready()
    return started
  }
  const ideToken = () => readFileSync(join(dataDir, 'ide-token'), 'utf8').trim()
  /** The IDE's API as a signed-in tool calls it, with the token in the data folder. */
  const ide = (s: StackProcess) => ({ port: s.port, ideToken: new IdeToken(dataDir) })
  const runtime = (s: StackProcess, id: string, path: string, init: RequestInit = {}) =>
    fetch(`${s.url}${path}`, {
      ...init,
      headers: {
        'E2b-Sandbox-Id': id,
        'X-Access-Token': sandboxes.get(id)?.token ?? '',
        ...(init.headers as Record<string, string>),
      },
    })
  const live = () => [...sandboxes].filter(([, j]) => !j.killAsked).map(([id]) => id)

  /** One operation, chosen by the generator, on the stack while it runs; failures are expected. */
  async function operate(s: StackProcess): Promise<void> {
    const roll = random()
    const target = pick(live())
    if (roll < 0.15 || target === undefined) {
      if (live().length >= maxSandboxes) return
      const res = await s.api('POST', '/sandboxes', { templateID: 'base', timeout: 3600, autoPause: true })
      if (res.status !== 201) return
      const { sandboxID, envdAccessToken } = (await res.json()) as {
        sandboxID: string
        envdAccessToken: string
      }
      count('creates')
      sandboxes.set(sandboxID, {
        token: envdAccessToken,
        createAcked: true,
        killAsked: false,
        killAcked: false,
        files: {},
        queue: Promise.resolve(),
      })
      return
    }
    const journal = sandboxes.get(target) as SandboxJournal
    const op = async () => {
      if (journal.killAsked) return
      if (roll < 0.6) {
        // A save (or an upload): resumed first if it was paused, as the IDE does.
        const name: FileName = roll < 0.45 ? 'doc.txt' : 'upload.bin'
        await s.api('POST', `/sandboxes/${target}/connect`, { timeout: 3600 })
        const v = nextVersion++
        const file: FileJournal = journal.files[name] ?? {}
        journal.files[name] = file
        file.pending = v
        const form = new FormData()
        form.append('file', new Blob([content(name, v)]), name)
        const res = await runtime(s, target, `/files?path=${encodeURIComponent(`/home/user/${name}`)}`, {
          method: 'POST',
          body: form,
        })
        if (res.ok) {
          count(name === 'doc.txt' ? 'saves' : 'uploads')
          file.acked = v
          file.pending = undefined
        }
      } else if (roll < 0.72) {
        if ((await s.api('POST', `/sandboxes/${target}/pause`)).status === 204) count('pauses')
      } else if (roll < 0.84) {
        const res = await ideCall(ide(s), 'POST', `/sandboxes/${target}/join-links`, {
          student: `student of ${target}`,
        })
        if (res.status === 201) {
          count('join links')
          links.set(res.json.id, { sandboxId: target, revokeAsked: false, revokeAcked: false })
        }
      } else if (roll < 0.92) {
        const [id, link] = pick([...links].filter(([, l]) => !l.revokeAsked)) ?? []
        if (!id || !link) return
        link.revokeAsked = true
        const res = await ideCall(ide(s), 'DELETE', `/join-links/${id}`)
        if (res.status < 300) {
          link.revokeAcked = true
          count('revokes')
        }
      } else if (live().length > 1) {
        journal.killAsked = true
        const res = await s.api('DELETE', `/sandboxes/${target}`)
        if (res.status === 204) {
          journal.killAcked = true
          count('kills')
        }
      }
    }
    journal.queue = journal.queue.then(op, op).catch(() => {})
    await journal.queue
  }

  /** What must hold after a restart: records whole, sandboxes paused, acknowledged work kept. */
  async function check(s: StackProcess, round: number): Promise<void> {
    const where = `round ${round} (seed ${seed})`
    const parse = (name: string) => {
      try {
        return JSON.parse(readFileSync(join(dataDir, name), 'utf8')) as unknown
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined
        throw new Error(`${where}: ${name} does not parse: ${String(err)}`)
      }
    }
    const records = parse('sandboxes.json') as { sandboxID: string }[]
    expect(Array.isArray(records), where).toBe(true)
    const stored = parse('join-links.json') as { id: string }[] | undefined
    expect(stored === undefined || Array.isArray(stored), where).toBe(true)
    expect(ideToken(), where).not.toBe('')
    expect(
      readdirSync(dataDir).filter((f) => f.includes('.damaged-')),
      `${where}: records set aside as damaged`,
    ).toEqual([])

    const ids = new Set(records.map((r) => r.sandboxID))
    for (const [id, journal] of sandboxes) {
      if (journal.killAcked) expect(ids.has(id), `${where}: ${id} was killed`).toBe(false)
      else if (journal.createAcked && !journal.killAsked)
        expect(ids.has(id), `${where}: ${id} was created`).toBe(true)
      if (!ids.has(id)) journal.killAsked = true
    }
    const linkIds = new Set((stored ?? []).map((l) => l.id))
    for (const [id, link] of links) {
      const sandboxGone = sandboxes.get(link.sandboxId)?.killAsked
      if (link.revokeAcked) expect(linkIds.has(id), `${where}: link ${id} was revoked`).toBe(false)
      else if (!link.revokeAsked && !sandboxGone)
        expect(linkIds.has(id), `${where}: link ${id} was issued`).toBe(true)
      if (!linkIds.has(id)) link.revokeAsked = true
    }

    for (const id of ids) {
      expect(await s.state(id), `${where}: ${id} after the restart`).toMatchObject({
        state: 'paused',
        processesLost: true,
      })
      const journal = sandboxes.get(id)
      if (!journal) {
        // Created by a call the kill cut off: the workload takes it on from now.
        const detail = (await (await s.api('GET', `/sandboxes/${id}`)).json()) as { envdAccessToken: string }
        const adopted = {
          token: detail.envdAccessToken,
          createAcked: true,
          killAsked: false,
          killAcked: false,
        }
        sandboxes.set(id, { ...adopted, files: {}, queue: Promise.resolve() })
        continue
      }
      const resumed = await s.api('POST', `/sandboxes/${id}/connect`, { timeout: 3600 })
      expect(resumed.status, `${where}: resuming ${id}`).toBe(201)
      for (const [name, file] of Object.entries(journal.files) as [FileName, FileJournal][]) {
        const res = await runtime(s, id, `/files?path=${encodeURIComponent(`/home/user/${name}`)}`)
        const allowed = [file.acked, file.pending].filter((v) => v !== undefined)
        if (res.status === 404) {
          expect(
            file.acked,
            `${where}: ${id}'s ${name} (version ${file.acked} was saved) is gone`,
          ).toBeUndefined()
          continue
        }
        expect(res.status, `${where}: reading ${id}'s ${name}`).toBe(200)
        const version = versionOf(name, await res.text())
        expect(allowed, `${where}: ${id}'s ${name} is ${version}; old or new expected`).toContain(version)
        file.acked = version as number
        file.pending = undefined
        count('files checked')
      }
    }
  }

  it(`survives ${kills} kills at random moments (seed ${seed})`, {
    timeout: 120_000 + kills * 90_000,
  }, async () => {
    let s = await start()
    for (let round = 1; round <= kills; round++) {
      // Workers run operations until the kill; the kill comes at a chosen moment of them.
      let killed = false
      const workers = Array.from({ length: 3 }, async () => {
        while (!killed) await operate(s).catch(() => {})
      })
      await sleep(300 + random() * 2700)
      const processes: Proc[] = processTree(s.group)
      s.signal('SIGKILL')
      killed = true
      await s.exited()
      await Promise.all(workers)
      s = await start()
      expect(s.output).toMatch(/stack: the stack before this one \(pid \d+\) did not stop/)
      // Its sandboxes end with it (bwrap's --die-with-parent), or, one being started at that
      // moment, when the next stack starts.
      const survivors = processes.filter(lives).map((p) => `${p.pid} ${p.command.slice(0, 100)}`)
      expect(survivors, `round ${round}: the killed stack's processes`).toEqual([])
      await check(s, round)
    }
    console.log(`kill and restart (seed ${seed}, ${kills} kills): ${JSON.stringify(done)}`)
    const processes = processTree(s.group)
    const sockets = socketsFolder(dataDir)
    s.signal('SIGINT')
    expect(await s.exited()).toBe(0)
    expect(await leftBehind(dataDir, processes, sockets)).toEqual([])
  })
})
