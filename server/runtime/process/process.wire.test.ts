// process.Process on the wire: raw fetch, envelopes and JSON checked byte for byte.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestRuntime, type TestRuntime } from '../testing/runtimeFixture'
import { type Envelope, envelope, postStream, postUnary, splitEnvelopes } from '../testing/wire'

const b64 = (s: string) => Buffer.from(s).toString('base64')
const text = (envs: Envelope[], kind: 'stdout' | 'stderr' | 'pty') =>
  envs
    .map((e) => e.json?.event?.data?.[kind])
    .filter(Boolean)
    .map((d: string) => Buffer.from(d, 'base64').toString())
    .join('')

describe('process.Process on the wire', () => {
  let rt: TestRuntime
  beforeAll(async () => {
    rt = await startTestRuntime()
  })
  afterAll(() => rt.close())

  it('streams start, data and end in envelopes, then an empty end-stream', async () => {
    const res = await postStream(
      rt.url,
      '/process.Process/Start',
      { process: { cmd: 'echo', args: ['hi'] } },
      rt.auth,
    )
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/connect+json')
    const [first, ...rest] = res.envelopes
    expect(first?.flags).toBe(0)
    expect(first?.text).toMatch(/^\{"event":\{"start":\{"pid":\d+\}\}\}$/)
    expect(rest.map((e) => e.text)).toEqual([
      `{"event":{"data":{"stdout":"${b64('hi\n')}"}}}`,
      '{"event":{"end":{"exited":true,"status":"exit status 0"}}}',
      '{}',
    ])
    expect(rest.at(-1)?.flags).toBe(2)
    // The frame lengths add up to the body exactly.
    expect(splitEnvelopes(res.bytes)).toHaveLength(res.envelopes.length)
  })

  it('names in X-Attached-Pids the processes a stream reads now, and not one whose stream went away', async () => {
    const sleeper = (tag: string) => ({ process: { cmd: 'sleep', args: ['30'] }, tag })
    const watched = postStream(rt.url, '/process.Process/Start', sleeper('watched'), rt.auth)
    // Its stream ends once the start event came: the process runs on, read by no one.
    await postStream(rt.url, '/process.Process/Start', sleeper('left'), rt.auth, (e) => e.length > 0)
    const watchedPid = await waitForTag(rt, 'watched')
    const leftPid = await waitForTag(rt, 'left')
    await expect
      .poll(async () => {
        const list = await postUnary(rt.url, '/process.Process/List', {}, rt.auth)
        return list.headers.get('X-Attached-Pids')?.split(',').map(Number)
      })
      .toEqual(expect.arrayContaining([watchedPid]))
    const list = await postUnary(rt.url, '/process.Process/List', {}, rt.auth)
    expect(list.headers.get('X-Attached-Pids')?.split(',').map(Number)).not.toContain(leftPid)
    for (const pid of [watchedPid, leftPid])
      await postUnary(
        rt.url,
        '/process.Process/SendSignal',
        { process: { pid }, signal: 'SIGNAL_SIGKILL' },
        rt.auth,
      )
    await watched
  })

  it('reports a failing exit with exitCode, status and error', async () => {
    const res = await postStream(
      rt.url,
      '/process.Process/Start',
      { process: { cmd: 'sh', args: ['-c', 'echo oops >&2; exit 3'] } },
      rt.auth,
    )
    expect(text(res.envelopes, 'stderr')).toBe('oops\n')
    expect(res.envelopes.at(-2)?.text).toBe(
      '{"event":{"end":{"exitCode":3,"exited":true,"status":"exit status 3","error":"exit status 3"}}}',
    )
  })

  it('ends a missing command with status 127 and a message on stderr, as envd does', async () => {
    const res = await postStream(
      rt.url,
      '/process.Process/Start',
      { process: { cmd: 'no-such-command-xyz' } },
      rt.auth,
    )
    expect(text(res.envelopes, 'stderr')).toContain('no-such-command-xyz')
    expect(res.envelopes.at(-2)?.json).toEqual({
      event: { end: { exitCode: 127, exited: true, status: 'exit status 127', error: 'exit status 127' } },
    })
  })

  it('gives processes HOME, USER, LOGNAME and PATH, resolves a relative cwd against home, and TERM on PTYs', async () => {
    const pipe = await postStream(
      rt.url,
      '/process.Process/Start',
      {
        process: {
          cmd: 'sh',
          args: ['-c', 'echo "$HOME|$USER|$LOGNAME|${PATH:+path}|${TERM:-none}|$PWD"'],
          cwd: '.',
        },
      },
      rt.auth,
    )
    const user = process.env.USER ?? require('node:os').userInfo().username
    expect(text(pipe.envelopes, 'stdout')).toBe(`${rt.home}|${user}|${user}|path|none|${rt.home}\n`)
    const tty = await postStream(
      rt.url,
      '/process.Process/Start',
      {
        process: { cmd: 'sh', args: ['-c', 'echo $TERM; stty size'] },
        pty: { size: { cols: 91, rows: 13 } },
      },
      rt.auth,
    )
    expect(text(tty.envelopes, 'pty')).toBe('xterm-256color\r\n13 91\r\n')
  })

  it('lets request envs win over the defaults', async () => {
    const res = await postStream(
      rt.url,
      '/process.Process/Start',
      {
        process: { cmd: 'sh', args: ['-c', 'echo $TERM $HOME'], envs: { TERM: 'dumb', HOME: '/x' } },
        pty: { size: { cols: 80, rows: 24 } },
      },
      rt.auth,
    )
    expect(text(res.envelopes, 'pty')).toBe('dumb /x\r\n')
  })

  it('answers a missing cwd with invalid_argument in the end-stream message', async () => {
    const res = await postStream(
      rt.url,
      '/process.Process/Start',
      { process: { cmd: 'true', cwd: 'no/such/dir' } },
      rt.auth,
    )
    expect(res.status).toBe(200)
    expect(res.envelopes).toHaveLength(1)
    expect(res.envelopes[0]?.flags).toBe(2)
    expect(res.envelopes[0]?.json).toEqual({
      error: { code: 'invalid_argument', message: `cwd '${rt.home}/no/such/dir' does not exist` },
    })
  })

  it('splits PTY output into chunks of at most 16 KiB and pipe output into at most 32 KiB', async () => {
    const script = 'head -c 200000 /dev/zero | tr "\\0" x'
    const tty = await postStream(
      rt.url,
      '/process.Process/Start',
      { process: { cmd: 'sh', args: ['-c', script] }, pty: {} },
      rt.auth,
    )
    const ptySizes = tty.envelopes
      .map((e) => e.json?.event?.data?.pty)
      .filter(Boolean)
      .map((d: string) => Buffer.from(d, 'base64').length)
    expect(Math.max(...ptySizes)).toBeLessThanOrEqual(16 * 1024)
    expect(ptySizes.reduce((a, b) => a + b, 0)).toBe(200000)
    const pipe = await postStream(
      rt.url,
      '/process.Process/Start',
      { process: { cmd: 'sh', args: ['-c', script] } },
      rt.auth,
    )
    const pipeSizes = pipe.envelopes
      .map((e) => e.json?.event?.data?.stdout)
      .filter(Boolean)
      .map((d: string) => Buffer.from(d, 'base64').length)
    expect(Math.max(...pipeSizes)).toBeLessThanOrEqual(32 * 1024)
    expect(pipeSizes.reduce((a, b) => a + b, 0)).toBe(200000)
  })

  it('opens a stdin pipe when stdin is absent, and /dev/null when it is false', async () => {
    const withStdin = postStream(
      rt.url,
      '/process.Process/Start',
      { process: { cmd: 'cat' }, tag: 'cat-stdin' },
      rt.auth,
    )
    const pid = await waitForTag(rt, 'cat-stdin')
    expect(
      (
        await postUnary(
          rt.url,
          '/process.Process/SendInput',
          { process: { pid }, input: { stdin: b64('typed\n') } },
          rt.auth,
        )
      ).status,
    ).toBe(200)
    expect(
      (await postUnary(rt.url, '/process.Process/CloseStdin', { process: { pid } }, rt.auth)).status,
    ).toBe(200)
    expect(text((await withStdin).envelopes, 'stdout')).toBe('typed\n')
    // stdin false: cat reads EOF at once and ends by itself.
    const noStdin = await postStream(
      rt.url,
      '/process.Process/Start',
      { process: { cmd: 'cat' }, stdin: false },
      rt.auth,
    )
    expect(noStdin.envelopes.at(-2)?.json?.event?.end?.exited).toBe(true)
  })

  it('lists running processes with config and tag, and not finished ones', async () => {
    const stream = postStream(
      rt.url,
      '/process.Process/Start',
      { process: { cmd: 'sleep', args: ['30'], envs: { A: 'b' }, cwd: '/tmp' }, tag: 'sleeper' },
      rt.auth,
    )
    const pid = await waitForTag(rt, 'sleeper')
    const list = await postUnary(rt.url, '/process.Process/List', {}, rt.auth)
    expect(list.json.processes).toContainEqual({
      config: { cmd: 'sleep', args: ['30'], envs: { A: 'b' }, cwd: '/tmp' },
      pid,
      tag: 'sleeper',
    })
    await postUnary(
      rt.url,
      '/process.Process/SendSignal',
      { process: { pid }, signal: 'SIGNAL_SIGKILL' },
      rt.auth,
    )
    const res = await stream
    expect(res.envelopes.at(-2)?.text).toBe(
      '{"event":{"end":{"exitCode":-1,"status":"signal: killed","error":"signal: killed"}}}',
    )
    const after = await postUnary(rt.url, '/process.Process/List', {}, rt.auth)
    expect((after.json.processes ?? []).map((p: { pid: number }) => p.pid)).not.toContain(pid)
  })

  it('ends a process with SIGTERM as "signal: terminated", and rejects other signals as unimplemented', async () => {
    const stream = postStream(
      rt.url,
      '/process.Process/Start',
      { process: { cmd: 'sleep', args: ['30'] }, tag: 'term-me' },
      rt.auth,
    )
    const pid = await waitForTag(rt, 'term-me')
    const bad = await postUnary(
      rt.url,
      '/process.Process/SendSignal',
      { process: { pid }, signal: 'SIGNAL_UNSPECIFIED' },
      rt.auth,
    )
    expect(bad.status).toBe(501)
    expect(bad.json.code).toBe('unimplemented')
    await postUnary(
      rt.url,
      '/process.Process/SendSignal',
      { process: { pid }, signal: 'SIGNAL_SIGTERM' },
      rt.auth,
    )
    expect((await stream).envelopes.at(-2)?.json?.event?.end).toEqual({
      exitCode: -1,
      status: 'signal: terminated',
      error: 'signal: terminated',
    })
  })

  it('answers unknown processes with not_found: 404 for unary, an end-stream error for Connect', async () => {
    const unary = await postUnary(
      rt.url,
      '/process.Process/SendInput',
      { process: { pid: 999999 }, input: { pty: 'YQ==' } },
      rt.auth,
    )
    expect(unary.status).toBe(404)
    expect(unary.json).toEqual({ code: 'not_found', message: 'process with pid 999999 not found' })
    const stream = await postStream(
      rt.url,
      '/process.Process/Connect',
      { process: { tag: 'nobody' } },
      rt.auth,
    )
    expect(stream.status).toBe(200)
    expect(stream.envelopes.map((e) => [e.flags, e.json])).toEqual([
      [2, { error: { code: 'not_found', message: 'process with tag nobody not found' } }],
    ])
  })

  it('rejects empty selectors and inputs with unimplemented, and mismatched input with internal', async () => {
    const sel = await postUnary(rt.url, '/process.Process/Update', { process: {} }, rt.auth)
    expect([sel.status, sel.json.code]).toEqual([501, 'unimplemented'])
    const stream = postStream(
      rt.url,
      '/process.Process/Start',
      { process: { cmd: 'sleep', args: ['30'] }, tag: 'pipe-proc' },
      rt.auth,
    )
    const pid = await waitForTag(rt, 'pipe-proc')
    const noInput = await postUnary(
      rt.url,
      '/process.Process/SendInput',
      { process: { pid }, input: {} },
      rt.auth,
    )
    expect([noInput.status, noInput.json.code]).toEqual([501, 'unimplemented'])
    const ptyInput = await postUnary(
      rt.url,
      '/process.Process/SendInput',
      { process: { pid }, input: { pty: 'YQ==' } },
      rt.auth,
    )
    expect([ptyInput.status, ptyInput.json]).toEqual([
      500,
      { code: 'internal', message: 'tty not assigned to process' },
    ])
    const resize = await postUnary(
      rt.url,
      '/process.Process/Update',
      { process: { pid }, pty: { size: { cols: 10, rows: 10 } } },
      rt.auth,
    )
    expect([resize.status, resize.json.code]).toEqual([500, 'internal'])
    const noop = await postUnary(rt.url, '/process.Process/Update', { process: { pid } }, rt.auth)
    expect([noop.status, noop.text]).toEqual([200, '{}'])
    await postUnary(
      rt.url,
      '/process.Process/SendSignal',
      { process: { pid }, signal: 'SIGNAL_SIGKILL' },
      rt.auth,
    )
    await stream
  })

  it('refuses CloseStdin on a PTY with unknown, and resizes a PTY so stty sees it', async () => {
    const stream = postStream(
      rt.url,
      '/process.Process/Start',
      { process: { cmd: 'bash', args: ['--norc', '-i'] }, pty: { size: { cols: 80, rows: 24 } }, tag: 'tty' },
      rt.auth,
    )
    const pid = await waitForTag(rt, 'tty')
    const close = await postUnary(rt.url, '/process.Process/CloseStdin', { process: { pid } }, rt.auth)
    expect([close.status, close.json.code]).toEqual([500, 'unknown'])
    expect(close.json.message).toContain('Ctrl+D')
    expect(
      (
        await postUnary(
          rt.url,
          '/process.Process/Update',
          { process: { pid }, pty: { size: { cols: 132, rows: 40 } } },
          rt.auth,
        )
      ).status,
    ).toBe(200)
    await postUnary(
      rt.url,
      '/process.Process/SendInput',
      { process: { pid }, input: { pty: b64('stty size; exit 0\n') } },
      rt.auth,
    )
    const out = text((await stream).envelopes, 'pty')
    expect(out).toContain('40 132')
  })

  it('sends keepalives on quiet streams, clamping an interval below 1 s instead of crashing', async () => {
    for (const interval of ['1', '0', '-5']) {
      const res = await postStream(
        rt.url,
        '/process.Process/Start',
        { process: { cmd: 'sleep', args: ['1.6'] } },
        { ...rt.auth, 'Keepalive-Ping-Interval': interval },
      )
      expect(
        res.envelopes.filter((e) => e.text === '{"event":{"keepalive":{}}}').length,
      ).toBeGreaterThanOrEqual(1)
      expect(res.envelopes.at(-1)?.text).toBe('{}')
    }
  })

  it('treats Connect-Timeout-Ms on Start as the process lifetime', async () => {
    const res = await postStream(
      rt.url,
      '/process.Process/Start',
      { process: { cmd: 'sh', args: ['-c', 'echo $$; exec sleep 30'] } },
      { ...rt.auth, 'Connect-Timeout-Ms': '500' },
    )
    const pid = Number(text(res.envelopes, 'stdout').trim())
    expect(res.envelopes.at(-1)?.flags).toBe(2)
    expect(res.envelopes.at(-1)?.json?.error?.code).toBe('deadline_exceeded')
    await expect.poll(() => isAlive(pid)).toBe(false)
  })

  it('treats Connect-Timeout-Ms on Connect as the stream deadline only, and survives a client that leaves', async () => {
    const start = postStream(
      rt.url,
      '/process.Process/Start',
      { process: { cmd: 'sleep', args: ['30'] }, tag: 'long' },
      rt.auth,
      (e) => e.length >= 1,
    )
    const pid = await waitForTag(rt, 'long')
    await start // the client read the start event and went away
    const res = await postStream(
      rt.url,
      '/process.Process/Connect',
      { process: { pid } },
      { ...rt.auth, 'Connect-Timeout-Ms': '300' },
    )
    expect(res.envelopes[0]?.text).toBe(`{"event":{"start":{"pid":${pid}}}}`)
    expect(res.envelopes.at(-1)?.json?.error?.code).toBe('deadline_exceeded')
    expect(isAlive(pid)).toBe(true)
    await postUnary(
      rt.url,
      '/process.Process/SendSignal',
      { process: { pid }, signal: 'SIGNAL_SIGKILL' },
      rt.auth,
    )
  })

  it('rejects a malformed Connect-Timeout-Ms with invalid_argument', async () => {
    const res = await postUnary(
      rt.url,
      '/process.Process/List',
      {},
      { ...rt.auth, 'Connect-Timeout-Ms': 'soon' },
    )
    expect([res.status, res.json.code]).toEqual([400, 'invalid_argument'])
  })

  it('keeps a finished process’s end for a late Connect', async () => {
    const done = await postStream(
      rt.url,
      '/process.Process/Start',
      { process: { cmd: 'sh', args: ['-c', 'echo bye; exit 4'] } },
      rt.auth,
    )
    const pid = done.envelopes[0]?.json.event.start.pid
    const late = await postStream(rt.url, '/process.Process/Connect', { process: { pid } }, rt.auth)
    expect(late.envelopes.map((e) => e.text)).toEqual([
      `{"event":{"start":{"pid":${pid}}}}`,
      '{"event":{"end":{"exitCode":4,"exited":true,"status":"exit status 4","error":"exit status 4"}}}',
      '{}',
    ])
    // With the replay header, the held output comes first, from the offset asked for.
    const replay = await postStream(
      rt.url,
      '/process.Process/Connect',
      { process: { pid } },
      { ...rt.auth, 'X-Replay-From': '1' },
    )
    expect(replay.headers.get('x-replay-start')).toBe('1')
    expect(replay.headers.get('x-replay-end')).toBe('4')
    expect(text(replay.envelopes, 'stdout')).toBe('ye\n')
  })

  it('replays held output on Connect only when asked, and says where the replay starts and ends', async () => {
    const start = postStream(
      rt.url,
      '/process.Process/Start',
      { process: { cmd: 'sh', args: ['-c', 'echo one; sleep 30'] }, tag: 'replay' },
      rt.auth,
      (e) => text(e, 'stdout').includes('one'),
    )
    const pid = await waitForTag(rt, 'replay')
    await start
    const plain = await postStream(
      rt.url,
      '/process.Process/Connect',
      { process: { pid } },
      { ...rt.auth, 'Connect-Timeout-Ms': '300' },
    )
    expect(text(plain.envelopes, 'stdout')).toBe('')
    expect(plain.headers.get('x-replay-start')).toBeNull()
    expect(plain.headers.get('x-replay-end')).toBeNull()
    const replayed = await postStream(
      rt.url,
      '/process.Process/Connect',
      { process: { pid } },
      { ...rt.auth, 'X-Replay-From': '0', 'Connect-Timeout-Ms': '300' },
    )
    expect(replayed.headers.get('x-replay-start')).toBe('0')
    // The past ends where the output stood at the attach; what comes after it is live.
    expect(replayed.headers.get('x-replay-end')).toBe('4')
    expect(text(replayed.envelopes, 'stdout')).toBe('one\n')
    const bad = await postStream(
      rt.url,
      '/process.Process/Connect',
      { process: { pid } },
      { ...rt.auth, 'X-Replay-From': 'yesterday' },
    )
    expect(bad.envelopes[0]?.json?.error?.code).toBe('invalid_argument')
    await postUnary(
      rt.url,
      '/process.Process/SendSignal',
      { process: { pid }, signal: 'SIGNAL_SIGKILL' },
      rt.auth,
    )
  })

  it('holds at most about 1 MiB for replay, the newest output', async () => {
    const done = await postStream(
      rt.url,
      '/process.Process/Start',
      { process: { cmd: 'sh', args: ['-c', 'head -c 3000000 /dev/zero | tr "\\0" y'] } },
      rt.auth,
    )
    const pid = done.envelopes[0]?.json.event.start.pid
    const replay = await postStream(
      rt.url,
      '/process.Process/Connect',
      { process: { pid } },
      { ...rt.auth, 'X-Replay-From': '0' },
    )
    const start = Number(replay.headers.get('x-replay-start'))
    const bytes = text(replay.envelopes, 'stdout').length
    expect(start + bytes).toBe(3000000)
    expect(bytes).toBeGreaterThan(900 * 1024)
    expect(bytes).toBeLessThanOrEqual(1024 * 1024)
  })

  it('rejects unknown fields, wrong types and malformed JSON with invalid_argument, and keeps serving', async () => {
    for (const body of ['{"bogus":1}', '{"processes":"x"}', '{not json', '[]']) {
      const res = await postUnary(rt.url, '/process.Process/List', body, rt.auth)
      expect([res.status, res.json.code]).toEqual([400, 'invalid_argument'])
    }
    const stream = await postStream(
      rt.url,
      '/process.Process/Start',
      { process: { cmd: 'true', extra: 1 } },
      rt.auth,
    )
    expect(stream.envelopes.at(-1)?.json?.error?.code).toBe('invalid_argument')
    expect((await postUnary(rt.url, '/process.Process/List', {}, rt.auth)).status).toBe(200)
  })

  it('answers the wrong content type with 415 and a huge body with resource_exhausted', async () => {
    const wrong = await fetch(`${rt.url}/process.Process/List`, {
      method: 'POST',
      headers: { ...rt.auth, 'Content-Type': 'text/plain' },
      body: '{}',
    })
    expect(wrong.status).toBe(415)
    const streamAsUnary = await postUnary(
      rt.url,
      '/process.Process/Start',
      { process: { cmd: 'true' } },
      rt.auth,
    )
    expect(streamAsUnary.status).toBe(415)
    const huge = `{"process":{"pid":1},"input":{"stdin":"${'A'.repeat(100 * 1024 * 1024)}"}}`
    const res = await postUnary(rt.url, '/process.Process/SendInput', huge, rt.auth)
    expect([res.status, res.json.code]).toEqual([429, 'resource_exhausted'])
    expect((await postUnary(rt.url, '/process.Process/List', {}, rt.auth)).status).toBe(200)
  })

  it('answers an unknown Basic user with unauthenticated in Connect’s JSON', async () => {
    const basic = `Basic ${Buffer.from('no-such-user-42:').toString('base64')}`
    const res = await postUnary(rt.url, '/process.Process/List', {}, { ...rt.auth, Authorization: basic })
    expect(res.status).toBe(401)
    expect(res.json).toEqual({ code: 'unauthenticated', message: "invalid username: 'no-such-user-42'" })
  })

  it.runIf(process.getuid?.() === 0)(
    'runs a process as the user that Basic names, with that user’s env',
    async () => {
      const basic = `Basic ${Buffer.from('nobody:').toString('base64')}`
      const res = await postStream(
        rt.url,
        '/process.Process/Start',
        { process: { cmd: 'sh', args: ['-c', 'echo "$(id -un) $USER $LOGNAME"'], cwd: '/tmp' } },
        { ...rt.auth, Authorization: basic },
      )
      expect(text(res.envelopes, 'stdout')).toBe('nobody nobody nobody\n')
    },
  )

  it('takes StreamInput as envelopes: start first, then data, ending with {}', async () => {
    const stream = postStream(
      rt.url,
      '/process.Process/Start',
      { process: { cmd: 'head', args: ['-n', '1'] }, tag: 'head' },
      rt.auth,
    )
    const pid = await waitForTag(rt, 'head')
    const body = Buffer.concat([
      envelope(JSON.stringify({ start: { process: { pid } } })),
      envelope(JSON.stringify({ keepalive: {} })),
      envelope(JSON.stringify({ data: { input: { stdin: b64('streamed\n') } } })),
    ])
    const res = await fetch(`${rt.url}/process.Process/StreamInput`, {
      method: 'POST',
      headers: { ...rt.auth, 'Content-Type': 'application/connect+json' },
      body,
    })
    const envs = splitEnvelopes(new Uint8Array(await res.arrayBuffer()))
    expect(envs.map((e) => [e.flags, e.text])).toEqual([
      [0, '{}'],
      [2, '{}'],
    ])
    expect(text((await stream).envelopes, 'stdout')).toBe('streamed\n')
  })

  it('answers StreamInput data before start with invalid_argument, without crashing', async () => {
    const body = envelope(JSON.stringify({ data: { input: { stdin: b64('x') } } }))
    const res = await fetch(`${rt.url}/process.Process/StreamInput`, {
      method: 'POST',
      headers: { ...rt.auth, 'Content-Type': 'application/connect+json' },
      body,
    })
    const envs = splitEnvelopes(new Uint8Array(await res.arrayBuffer()))
    expect(envs.at(-1)?.json).toEqual({
      error: { code: 'invalid_argument', message: 'the first StreamInput message must be start' },
    })
    expect((await fetch(`${rt.url}/health`)).status).toBe(204)
  })

  it('ends the stream of a client that stops reading, so the others go on, with bounded memory', async () => {
    const flood = { process: { cmd: 'yes', args: ['flood'] }, tag: 'flood' }
    const stalled = await fetch(`${rt.url}/process.Process/Start`, {
      method: 'POST',
      headers: { ...rt.auth, 'Content-Type': 'application/connect+json' },
      body: envelope(JSON.stringify(flood)),
    })
    const reader = (stalled.body as ReadableStream<Uint8Array>).getReader()
    await reader.read() // the start event, then never read again
    const pid = await waitForTag(rt, 'flood')
    const rssBefore = process.memoryUsage().rss
    // A second client keeps reading: after the stalled one is cut loose, output flows again.
    const healthy = await postStream(
      rt.url,
      '/process.Process/Connect',
      { process: { pid } },
      rt.auth,
      (e) => text(e, 'stdout').length > 4 * 1024 * 1024,
    )
    expect(text(healthy.envelopes, 'stdout').length).toBeGreaterThan(4 * 1024 * 1024)
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(200 * 1024 * 1024)
    await postUnary(
      rt.url,
      '/process.Process/SendSignal',
      { process: { pid }, signal: 'SIGNAL_SIGKILL' },
      rt.auth,
    )
    await reader.cancel()
  }, 30_000)
})

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** Waits until a process with this tag is listed, and returns its pid. */
async function waitForTag(rt: TestRuntime, tag: string): Promise<number> {
  for (let i = 0; i < 200; i++) {
    const list = await postUnary(rt.url, '/process.Process/List', {}, rt.auth)
    const found = (list.json.processes ?? []).find((p: { tag?: string }) => p.tag === tag)
    if (found) return found.pid
    await new Promise((r) => setTimeout(r, 10))
  }
  throw new Error(`no process tagged ${tag}`)
}
