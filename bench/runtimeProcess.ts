import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { cpuSecondsOf } from './processCpu'

/** A runtime running in a process of its own, as the platform runs it, for benchmarks. */
export interface BenchRuntime {
  url: string
  home: string
  pid: number
  headers: Record<string, string>
  /** Resident memory of the runtime process, in bytes. */
  rss(): number
  /** CPU time the runtime process has used so far (user and system), in ms. */
  cpuMs(): number
  stop(): Promise<void>
}

/** Starts `server/runtime/cli.ts` on a free port with a fresh home and a token. */
export async function startBenchRuntime(): Promise<BenchRuntime> {
  const home = realpathSync(mkdtempSync(join(tmpdir(), 'bench-home-')))
  const token = 'bench-token'
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', 'server/runtime/cli.ts', '--port', '0', '--home', home],
    { env: { ...process.env, RUNTIME_ACCESS_TOKEN: token }, stdio: ['ignore', 'pipe', 'inherit'] },
  )
  const url = await new Promise<string>((resolve, reject) => {
    let out = ''
    child.stdout?.on('data', (d: Buffer) => {
      out += d
      const match = out.match(/listening on (http:\/\/\S+)/)
      if (match?.[1]) resolve(match[1])
    })
    child.once('exit', (code) => reject(new Error(`runtime exited with ${code}: ${out}`)))
  })
  const pid = child.pid as number
  return {
    url,
    home,
    pid,
    headers: { 'X-Access-Token': token },
    cpuMs: () => cpuSecondsOf(pid) * 1000,
    rss: () =>
      Number(readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+) kB/)?.[1] ?? 0) * 1024,
    stop: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.kill('SIGTERM')
      await exited
      rmSync(home, { recursive: true, force: true })
    },
  }
}
