// Source control against a real runtime and the real git: the runtime's home is the workspace,
// every command runs through its process API as in a sandbox (here the runtime runs on this
// machine, so the machine's git answers).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestRuntime, type TestRuntime } from '../../../server/runtime/testing/runtimeFixture'
import { FileWatch } from '../fileWatch'
import { SandboxSession } from '../SandboxSession'
import { bashQuote, sandboxGitRunner } from './gitCommand'
import type { ChangeGroup } from './gitStatus'
import { GitError, SourceControl, type SourceControlSnapshot } from './SourceControl'

const decoder = new TextDecoder()

async function until<T>(what: string, probe: () => T | undefined, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = probe()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

describe('SourceControl', { timeout: 120_000 }, () => {
  let rt: TestRuntime
  let session: SandboxSession
  let watch: FileWatch
  let scm: SourceControl

  /** Runs a bash script in the sandbox (in `dir` under the home); fails the test when it fails. */
  const sh = async (script: string, dir = '') => {
    const result = await session.processes.run('/bin/bash', {
      args: ['-c', `set -e\n${script}`],
      cwd: dir ? `${rt.home}/${dir}` : rt.home,
    })
    if (result.exitCode !== 0) throw new Error(`${script}\n→ ${result.output}`)
    return result.stdout
  }
  const repo = () => {
    const state = scm.getSnapshot().state
    if (state.kind !== 'repository') throw new Error(`no repository: ${JSON.stringify(state)}`)
    return state
  }
  const listed = (group: ChangeGroup) =>
    repo().status.groups[group].changes.map((c) => `${c.letter} ${c.path}`)
  const change = (group: ChangeGroup, path: string) => {
    const found = repo().status.groups[group].changes.find((c) => c.path === path)
    if (!found) throw new Error(`${path} is not in ${group}: ${listed(group).join(', ')}`)
    return found
  }
  /** Waits for the watch to bring a status that `probe` accepts (no refresh asked). */
  const seen = (what: string, probe: (snap: SourceControlSnapshot) => boolean) =>
    until(what, () => (probe(scm.getSnapshot()) ? true : undefined))

  beforeAll(async () => {
    rt = await startTestRuntime()
    session = new SandboxSession({ source: 'runtime', runtimeUrl: rt.url, accessToken: rt.token ?? '' })
    session.start()
    await until('the session', () => (session.getSnapshot().state.kind === 'running' ? true : undefined))
    watch = new FileWatch(session)
    scm = new SourceControl(session, watch)
  })
  afterAll(async () => {
    scm?.dispose()
    watch?.dispose()
    session?.dispose()
    await rt?.close()
  })

  it('quotes arguments so that bash gives every byte back (quotes, newlines, $, bytes that are not UTF-8)', async () => {
    const hostile = new Uint8Array([
      ...new TextEncoder().encode(`it's "a" \\ $(x) \`y\` \n\t!*?`),
      0xff,
      0xfe,
      0x31,
    ])
    const hex = await sh(`printf '%s' ${bashQuote(hostile)} | od -An -v -tx1`)
    expect(
      hex
        .split(/\s+/)
        .filter(Boolean)
        .map((h) => Number.parseInt(h, 16)),
    ).toEqual([...hostile])
  })

  it('says the home folder is no repository, and makes it one with Initialize', async () => {
    await until('a state', () => (scm.getSnapshot().state.kind === 'starting' ? undefined : true))
    expect(scm.getSnapshot().state).toEqual({ kind: 'none', folder: rt.home })
    await scm.init()
    expect(repo().root).toBe(rt.home)
    expect(repo().status.branch.oid).toBeUndefined()
  })

  it('stages and unstages a file before the first commit (git rm --cached: there is no HEAD to restore from)', async () => {
    await sh('printf "first\\n" > first.txt')
    await scm.refresh()
    await scm.stage([change('untracked', 'first.txt')])
    expect(listed('staged')).toEqual(['A first.txt'])
    await scm.unstage([change('staged', 'first.txt')])
    expect(listed('staged')).toEqual([])
    expect(listed('untracked')).toEqual(['? first.txt'])
    await sh('rm first.txt')
  })

  it('asks for an author when git knows none, and commits once it is set (for the whole sandbox)', async () => {
    // Git would otherwise make one up from the machine's user and host names.
    await sh('git config --global user.useConfigOnly true\nprintf "one\\ntwo\\nthree\\n" > a.txt')
    await scm.stageAll()
    const failed = await scm.commit('First commit').catch((err: unknown) => err)
    expect(failed).toBeInstanceOf(GitError)
    expect((failed as GitError).kind).toBe('identity')
    await scm.setAuthor('Ada Lovelace', 'ada@example.com')
    expect(await sh('git config --global user.name', '')).toBe('Ada Lovelace\n')
    await scm.commit('First commit')
    expect(await sh('git log -1 --format="%an <%ae> %s"')).toBe(
      'Ada Lovelace <ada@example.com> First commit\n',
    )
    expect(repo().status.branch.oid).toMatch(/^[0-9a-f]{40}$/)
  })

  it('shows a modified, a staged, an untracked and a renamed file in their groups, as the watch sees them', async () => {
    await sh('printf "b\\n" > b.txt && printf "c\\n" > c.txt && git add . && git commit -qm two')
    await sh(
      'printf "one\\n2\\nthree\\n" > a.txt && printf "B\\n" > b.txt && git add b.txt && git mv c.txt d.txt && printf "new\\n" > new.txt',
    )
    await seen(
      'the changes',
      (snap) => snap.state.kind === 'repository' && snap.state.status.groups.untracked.total === 1,
    )
    expect(listed('changes')).toEqual(['M a.txt'])
    expect(listed('staged')).toEqual(['M b.txt', 'R d.txt'])
    expect(change('staged', 'd.txt').from?.path).toBe('c.txt')
    expect(listed('untracked')).toEqual(['? new.txt'])
    const marks = scm.getSnapshot().decorations
    expect([marks.get(`${rt.home}/a.txt`), marks.get(`${rt.home}/new.txt`)]).toEqual(['M', '?'])
  })

  it('reads a file as HEAD and the index hold it', async () => {
    expect(decoder.decode(await scm.read('HEAD', 'b.txt'))).toBe('b\n')
    expect(decoder.decode(await scm.read('index', 'b.txt'))).toBe('B\n')
    expect(await scm.read('HEAD', 'new.txt')).toBeUndefined()
    expect(scm.relativePath(`${rt.home}/src/x.ts`)).toBe('src/x.ts')
  })

  it('stages, unstages and discards one file at a time', async () => {
    await scm.stage([change('changes', 'a.txt')])
    expect(listed('staged')).toContain('M a.txt')
    await scm.unstage([change('staged', 'b.txt')])
    expect(listed('changes')).toContain('M b.txt')
    await scm.discard([change('changes', 'b.txt'), change('untracked', 'new.txt')])
    expect(await sh('cat b.txt; ls')).toBe('b\na.txt\nb.txt\nd.txt\n')
    expect(listed('changes')).toEqual([])
    expect(listed('untracked')).toEqual([])
  })

  it('commits with a message no shell sees, and amends it', async () => {
    const message = `Rename c to d; "quotes" and 'quotes', $(touch pwned) \`touch pwned\`\n\nA body.`
    await scm.commit(message)
    expect(await sh('git log -1 --format=%B')).toBe(`${message}\n\n`)
    expect(await sh('ls')).not.toContain('pwned')
    expect(listed('staged')).toEqual([])
    await sh('printf "x\\n" > x.txt')
    await scm.commit('', { amend: true, stageAll: true })
    expect(await sh('git log -1 --format=%s && git show --stat --format= HEAD | grep -c x.txt')).toBe(
      'Rename c to d; "quotes" and \'quotes\', $(touch pwned) `touch pwned`\n1\n',
    )
    await expect(scm.commit('  ')).rejects.toThrow(/empty/)
  })

  it('keeps a hostile name as git wrote it: listed as text, staged and discarded by its bytes', async () => {
    await sh(`printf "x" > "$(printf 'quote"s\\nnew line\\377')" && printf "y" > "*.txt"`)
    await scm.refresh()
    const hostile = repo().status.groups.untracked.changes.find((c) => c.path.startsWith('quote'))
    expect(hostile?.path).toBe('quote"s\nnew line\uFFFD')
    await scm.stage(hostile ? [hostile] : [])
    expect(listed('staged')).toEqual(['A quote"s\nnew line\uFFFD'])
    // A name that is a pattern names itself alone.
    await scm.discard([change('untracked', '*.txt')])
    expect(await sh('ls *.txt')).toBe('a.txt\nb.txt\nd.txt\nx.txt\n')
    await scm.unstage([change('staged', 'quote"s\nnew line\uFFFD')])
    await scm.discard([change('untracked', 'quote"s\nnew line\uFFFD')])
    expect(listed('untracked')).toEqual([])
  })

  it('shows a detached HEAD, and a merge conflict in its own group until it is staged', async () => {
    await sh('git checkout -q --detach')
    await scm.refresh()
    expect(repo().status.branch).toMatchObject({
      name: undefined,
      oid: expect.stringMatching(/^[0-9a-f]{40}$/),
    })
    await sh(`git checkout -q -b other
printf "other\\n" > a.txt && git commit -qam other
git checkout -q -
printf "mine\\n" > a.txt && git commit -qam mine
git merge other || true`)
    await scm.refresh()
    expect(listed('merge')).toEqual(['U a.txt'])
    expect(scm.getSnapshot().decorations.get(`${rt.home}/a.txt`)).toBe('U')
    await sh('printf "both\\n" > a.txt')
    await scm.stage([change('merge', 'a.txt')])
    expect(listed('merge')).toEqual([])
    await scm.commit('Merge other')
    expect(await sh('git log -1 --format=%p')).toMatch(/^[0-9a-f]+ [0-9a-f]+\n$/)
  })

  it('pushes to a bare repository in the sandbox and pulls what another clone pushed there', async () => {
    await sh(`git checkout -q -B main
git init -q --bare ../remote-${process.pid}.git
git remote add origin ../remote-${process.pid}.git`)
    await scm.refresh()
    expect(repo().remotes).toEqual(['origin'])
    await scm.push()
    expect(repo().status.branch).toMatchObject({ name: 'main', upstream: 'origin/main', ahead: 0, behind: 0 })
    await sh(
      `git clone -q -b main remote-${process.pid}.git clone-${process.pid}
cd clone-${process.pid} && printf "from the clone\\n" > pulled.txt && git add . && git commit -qm "From the clone" && git push -q`,
      '..',
    )
    await scm.pull()
    expect(await sh('git log -1 --format=%s && cat pulled.txt')).toBe('From the clone\nfrom the clone\n')
    await sh(`rm -rf ../remote-${process.pid}.git ../clone-${process.pid}`)
  })

  it("shows git's own words when a push fails", async () => {
    await sh('git remote set-url origin ../no-such-remote.git')
    const failed = await scm.push().catch((err: unknown) => err)
    expect(String(failed)).toMatch(/does not appear to be a git repository|no-such-remote/)
  })

  it('lists the first 1,000 of 10,000 changed files and counts the rest', async () => {
    await sh(
      'mkdir many && cd many && seq -f "f%05g" 10000 | xargs touch && git add . && git commit -qm many',
    )
    await sh('for f in many/*; do echo changed > "$f"; done')
    await scm.refresh()
    const changes = repo().status.groups.changes
    expect(changes.total).toBe(10_000)
    expect(changes.changes).toHaveLength(1000)
    expect(changes.changes[0]?.path).toBe('many/f00001')
    expect(scm.getSnapshot().decorations.get(`${rt.home}/many/f10000`)).toBe('M')
    expect(scm.getSnapshot().decorations.get(`${rt.home}/many`)).toBe('M')
  })

  it('runs one status at a time: requests made while one runs bring one more, not many', async () => {
    const base = sandboxGitRunner(session)
    let running = 0
    let most = 0
    let statuses = 0
    const counted = new SourceControl(session, { subscribe: () => () => {} }, async (args, options) => {
      if (args[0] !== 'status') return base(args, options)
      statuses++
      most = Math.max(most, ++running)
      try {
        return await base(args, options)
      } finally {
        running--
      }
    })
    try {
      await until('the first status', () => (statuses > 0 ? true : undefined))
      await Promise.all([counted.refresh(), counted.refresh(), counted.refresh(), counted.refresh()])
      expect(most).toBe(1)
      expect(statuses).toBe(2)
    } finally {
      counted.dispose()
    }
  })

  it('says so when there is no git, and when the folder is no repository any more', async () => {
    const base = sandboxGitRunner(session)
    const noGit = new SourceControl(session, watch, (args, options) =>
      base(args, { ...options, env: { ...options.env, PATH: '/nonexistent' } }),
    )
    try {
      await noGit.refresh()
      expect(noGit.getSnapshot().state).toEqual({ kind: 'missing' })
    } finally {
      noGit.dispose()
    }
    await sh('rm -rf .git')
    await scm.refresh()
    expect(scm.getSnapshot().state).toEqual({ kind: 'none', folder: rt.home })
    expect(scm.getSnapshot().decorations.size).toBe(0)
  })
})
