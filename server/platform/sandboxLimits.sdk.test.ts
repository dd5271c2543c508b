// One sandbox never takes the others down: a fork bomb stops at its process limit, a memory hog
// is killed inside its own sandbox while the runtime keeps answering, a full disk is full in that
// sandbox alone, and the API tells each sandbox's own figures. Through the official SDK, against
// real cgroups and real file systems.
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { CommandExitError, NotEnoughSpaceError, Sandbox } from 'e2b'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findCgroupDirs, sandboxGroupParent } from './launcher/findCgroupDirs'
import { ideCall } from './testing/ideCall'
import { startTestPlatform, type TestPlatform } from './testing/platformFixture'
import { pointSdkAt } from './testing/sdkEnv'

const limits = { cpus: 1, memoryMB: 256, pids: 128, diskMB: 64 }
const mib = 1024 * 1024

describe('limits per sandbox', () => {
  let tp: TestPlatform
  let bomb: Sandbox
  let neighbour: Sandbox
  let restoreEnv = () => {}
  const enforced = (controller: 'cpu' | 'memory' | 'pids') =>
    tp.platform.launcher.limits.enforced.includes(controller)

  beforeAll(async () => {
    tp = await startTestPlatform({ sandboxLimits: limits })
    restoreEnv = pointSdkAt(tp)
    ;[bomb, neighbour] = await Promise.all([Sandbox.create(), Sandbox.create()])
  }, 60_000)
  afterAll(async () => {
    restoreEnv()
    await tp?.close()
  })

  it('is bounded by the kernel on this machine, and the API says by what', async () => {
    expect(tp.platform.launcher.limits.kind, tp.platform.launcher.limits.warning).not.toBe('none')
    const answer = await ideCall(tp.platform, 'GET', '/stack')
    expect(answer.json.limits).toEqual({
      kind: tp.platform.launcher.limits.kind,
      enforced: tp.platform.launcher.limits.enforced,
    })
    expect(tp.platform.disks.kind, tp.platform.disks.warning).toBe('ext4-image')
    expect(answer.json.disk).toEqual({ kind: 'ext4-image' })
  })

  it('tells each sandbox’s own CPUs and memory in E2B’s answers and metrics', async () => {
    const detail = await (await tp.api('GET', `/sandboxes/${bomb.sandboxId}`)).json()
    expect(detail).toMatchObject({ cpuCount: 1, memoryMB: 256, diskSizeMB: 64 })
    const listed = await (await tp.api('GET', '/v2/sandboxes')).json()
    expect(listed.find((s: { sandboxID: string }) => s.sandboxID === bomb.sandboxId)).toMatchObject({
      cpuCount: 1,
      memoryMB: 256,
    })
    const [metric] = await bomb.getMetrics()
    expect(metric).toMatchObject({ cpuCount: 1, memTotal: 256 * mib })
    // The home's own file system, less what ext4 keeps for itself.
    expect(metric?.diskTotal).toBeGreaterThan(50 * mib)
    expect(metric?.diskTotal).toBeLessThanOrEqual(64 * mib)
  })

  it('fills one sandbox’s disk to its limit with envd’s 507; the neighbour and the host keep their space', async () => {
    // What this stack's files take on the host's disk (its sandboxes' images, allocated blocks),
    // its mounted homes left out: other tests write to the same disk meanwhile, so its free
    // space would say as much about them.
    const taken = () =>
      Number(execFileSync('du', ['-sx', '--block-size=1', tp.dataDir], { encoding: 'utf8' }).split('\t')[0])
    const takenBefore = taken()
    const full = await neighbour.commands
      .run('dd if=/dev/zero of=fill.bin bs=1M count=100')
      .catch((err: unknown) => err)
    expect((full as CommandExitError).stderr).toMatch(/No space left on device/)
    // An upload that does not fit: the SDK's own error, from envd's 507.
    await expect(neighbour.files.write('more.bin', new Uint8Array(8 * mib).buffer)).rejects.toThrow(
      NotEnoughSpaceError,
    )
    // Another sandbox writes as before; the host lost at most the sandbox's limit.
    await bomb.files.write('fine.bin', new Uint8Array(8 * mib).buffer)
    expect((await bomb.files.getInfo('fine.bin')).size).toBe(8 * mib)
    expect(taken() - takenBefore).toBeLessThan(80 * mib)
    // Freed, the space comes back.
    await neighbour.commands.run('rm fill.bin')
    await neighbour.files.write('more.bin', new Uint8Array(8 * mib).buffer)
    // Root's changes to its own system count against a limit of their own, the same size.
    if (tp.platform.launcher.system === 'own-copy') {
      const system = await neighbour.commands
        .run('sudo dd if=/dev/zero of=/usr/local/share/fill.bin bs=1M count=100')
        .catch((err: unknown) => err)
      expect((system as CommandExitError).stderr).toMatch(/No space left on device/)
      expect(taken() - takenBefore).toBeLessThan(160 * mib)
      await neighbour.commands.run('sudo rm /usr/local/share/fill.bin')
    }
  })

  it('removes a killed sandbox’s file system with it', async () => {
    const doomed = await Sandbox.create()
    const home = tp.platform.manager.homeDir(doomed.sandboxId)
    expect(tp.platform.disks.attached(home)).toBe(true)
    const system = join(dirname(home), 'system')
    if (tp.platform.launcher.system === 'own-copy') expect(tp.platform.disks.attached(system)).toBe(true)
    await doomed.kill()
    expect(tp.platform.disks.attached(home)).toBe(false)
    expect(tp.platform.disks.attached(system)).toBe(false)
    expect(existsSync(dirname(home))).toBe(false)
  })

  it('stops a fork bomb at the process limit, inside its sandbox; the neighbour and the platform go on', async () => {
    if (!enforced('pids')) return
    // Every loop forks a sleeper until fork fails; then it keeps trying, as a bomb does.
    await bomb.commands.run('while true; do sleep 30 & done', { background: true, timeoutMs: 0 })
    await new Promise((resolve) => setTimeout(resolve, 1500))
    for (let i = 0; i < 3; i++) {
      expect((await neighbour.commands.run(`echo neighbour-${i}`)).stdout).toBe(`neighbour-${i}\n`)
      expect((await tp.api('GET', `/sandboxes/${neighbour.sandboxId}`)).status).toBe(200)
    }
    // The bomb's own runtime still answers what needs no new process.
    expect((await bomb.files.list('/home/user')).length).toBeGreaterThanOrEqual(0)
    const failed = await bomb.commands.run('true').catch((err: unknown) => err)
    // A new process in the bombed sandbox fails to fork, or squeezes in: never the neighbour's problem.
    if (failed instanceof Error) expect(failed.message).toMatch(/error starting process|fork|resource/i)
    await bomb.kill()
    bomb = await Sandbox.create()
    expect((await bomb.commands.run('echo recovered')).stdout).toBe('recovered\n')
  })

  it('kills a memory hog inside its sandbox, and the runtime goes on answering', async () => {
    if (!enforced('memory')) return
    const hog = await neighbour.commands
      .run('python3 -c "held = bytearray(600 * 1024 * 1024); print(len(held))"')
      .catch((err: unknown) => err)
    expect(hog).toBeInstanceOf(CommandExitError)
    // envd's status, and why: the runtime reads its sandbox's OOM count from its memory cgroup.
    expect((hog as CommandExitError).error).toBe('signal: killed (the sandbox ran out of memory)')
    // A process killed by someone else is just killed.
    const killed = await neighbour.commands.run('kill -9 $$').catch((err: unknown) => err)
    expect((killed as CommandExitError).error).toBe('signal: killed')
    expect((await neighbour.commands.run('echo still-here')).stdout).toBe('still-here\n')
    expect(await neighbour.files.exists('/home/user')).toBe(true)
  })

  it('ranks a background sandbox (a grader) a tenth of an interactive one when the cores are contended', async () => {
    if (!enforced('cpu')) return
    const dirs = findCgroupDirs()
    const weightOf = (id: string) =>
      tp.platform.launcher.limits.kind === 'cgroup-v2'
        ? Number(readFileSync(join(dirs.v2 as string, sandboxGroupParent, id, 'cpu.weight'), 'utf8'))
        : Number(
            readFileSync(join(dirs.v1Limits?.cpu as string, sandboxGroupParent, id, 'cpu.shares'), 'utf8'),
          )
    const grader = await tp.platform.manager.create({ templateID: 'base', background: true })
    try {
      const [interactive, background] = [weightOf(neighbour.sandboxId), weightOf(grader.sandboxID)]
      expect(background).toBe(Math.round(interactive / 10))
    } finally {
      await tp.platform.manager.kill(grader.sandboxID)
    }
  })
})
