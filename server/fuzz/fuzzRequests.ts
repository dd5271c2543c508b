// The requests of the fuzz suite: for every route of every server of the stack, methods, headers,
// content types, credentials and bodies from valid to hostile, drawn by fast-check.
import fc from 'fast-check'
import { type FuzzRequest, showRequest } from './fuzzExchange'

/** What the generator needs to know about the stack under test. */
export interface FuzzTargets {
  port: number
  apiKey: string
  ideToken: string
  /** Sandboxes that exist (the fuzz never kills or pauses them with a valid credential). */
  sandboxes: { id: string; accessToken: string }[]
  /** A file on the host that no answer may ever contain. */
  hostSecretPath: string
}

const pick = <T>(...values: T[]) => fc.constantFrom(...values)

/** Strings that have broken servers: traversal, NUL, control bytes, huge, odd encodings. */
function hostileText(t: FuzzTargets): fc.Arbitrary<string> {
  return fc.oneof(
    pick(
      '',
      ' ',
      '.',
      '..',
      '../../../../etc/shadow',
      '/etc/shadow',
      '/proc/self/environ',
      '/proc/1/environ',
      t.hostSecretPath,
      `../../../../../..${t.hostSecretPath}`,
      '/dev/zero',
      '/dev/urandom',
      '~',
      '~root',
      '~nobody/x',
      'a\u0000b',
      '\u0000',
      '\n\r',
      '😀/ü/日本',
      '//',
      '\\..\\..\\',
      '%2e%2e%2f%2e%2e%2f',
      '/home/user/../../root',
      'x'.repeat(5000),
    ),
    fc.string({ maxLength: 40 }),
    fc.string({ unit: 'binary', maxLength: 40 }),
  )
}

/** A path the fuzz may create, move or delete: never the sandbox's home or system itself. */
const scratchPath = fc.oneof(
  fc.stringMatching(/^[a-z0-9]{1,12}$/).map((s) => `/tmp/fuzz/${s}`),
  fc.stringMatching(/^[a-z0-9]{1,12}$/).map((s) => `fuzz-${s}`),
  pick('/tmp/fuzz/a\u0000b', '/tmp/fuzz/😀', `/tmp/fuzz/${'n'.repeat(300)}`, '/tmp/fuzz/../fuzz/x'),
)

/** Numbers where types and ranges break. */
const oddNumber = fc.oneof(
  fc.integer(),
  pick(0, -1, 1e300, Number.MAX_SAFE_INTEGER, 2 ** 32, 2 ** 32 - 1, 1e9, 0.5),
  pick<unknown>('1', 'NaN', null, true, [], {}),
)

/** A JSON body: usually the given shape, sometimes any JSON, with unknown fields now and then. */
function jsonBody(shape: fc.Arbitrary<Record<string, unknown>>): fc.Arbitrary<Buffer> {
  return fc
    .oneof(
      { weight: 5, arbitrary: shape },
      { weight: 1, arbitrary: shape.map((b) => ({ ...b, surprise: 1 })) },
      { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
    )
    .map((value) => Buffer.from(JSON.stringify(value)))
}

/** Bytes that are not the JSON anyone asked for: malformed, binary, NUL, huge. */
const junkBody = fc
  .oneof(
    pick('{', '{"a":', '[]', 'null', '"x"', '{"path": "\u0000"}', '\u0000\u0000'),
    fc.string({ unit: 'binary', maxLength: 200 }),
  )
  .map((s) => Buffer.from(s))

/** Sometimes far past every limit the stack sets (64 KiB JSON, 8 MiB RPC). */
const hugeBody = pick(70 * 1024, 3 * 1024 * 1024, 9 * 1024 * 1024).map((n) =>
  Buffer.alloc(n, '{"a":"'.charCodeAt(0)),
)

function bodyOf(valid: fc.Arbitrary<Buffer>): fc.Arbitrary<Buffer | undefined> {
  return fc.oneof(
    { weight: 6, arbitrary: valid },
    { weight: 2, arbitrary: junkBody },
    { weight: 1, arbitrary: hugeBody },
    { weight: 1, arbitrary: fc.constant(undefined) },
  )
}

const contentType = fc.oneof(
  { weight: 6, arbitrary: fc.constant('application/json') },
  { weight: 1, arbitrary: pick('text/plain', 'application/x-www-form-urlencoded', 'application/proto', '') },
)

const method = (usual: string[]) =>
  fc.oneof(
    { weight: 8, arbitrary: pick(...usual) },
    { weight: 1, arbitrary: pick('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD') },
  )

function sandboxId(t: FuzzTargets): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: pick(...t.sandboxes.map((s) => s.id)) },
    { weight: 2, arbitrary: fc.stringMatching(/^[a-z0-9]{20}$/) },
    { weight: 1, arbitrary: hostileText(t).map(encodeURIComponent) },
  )
}

/**
 * Whether a call, with the right credential, could end or pause one of the suite's own sandboxes
 * (a kill, a pause, a timeout of a second): those stay out, as they would end what it checks.
 */
function endsASandbox(t: FuzzTargets, method: string, path: string): boolean {
  const ours = t.sandboxes.some((s) => path.includes(s.id))
  return ours && (method === 'DELETE' || /\/(pause|timeout|connect|resume|refreshes)$/.test(path))
}

/** The platform's E2B API: sandboxes, pause, resume, connect, timeout, refreshes, lists. */
function platformRequest(t: FuzzTargets): fc.Arbitrary<FuzzRequest> {
  const createBody = jsonBody(
    fc.record(
      {
        templateID: pick('base', 'python-basics', 'nope', '../etc'),
        timeout: oddNumber,
        autoPause: fc.boolean(),
        metadata: fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), { maxKeys: 3 }),
        envVars: fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), { maxKeys: 3 }),
      },
      { requiredKeys: [] },
    ),
  )
  const timeoutBody = jsonBody(fc.record({ timeout: oddNumber }, { requiredKeys: [] }))
  const route = fc.oneof(
    fc.record({
      m: method(['GET', 'POST']),
      path: pick('/sandboxes', '/v2/sandboxes'),
      body: bodyOf(createBody),
    }),
    fc.record({
      m: pick('GET'),
      path: fc
        .tuple(pick('/v2/sandboxes', '/sandboxes'), hostileText(t), oddNumber)
        .map(
          ([p, s, n]) =>
            `${p}?state=${encodeURIComponent(s)}&limit=${encodeURIComponent(String(n))}&nextToken=${encodeURIComponent(s)}&metadata=${encodeURIComponent(s)}`,
        ),
      body: fc.constant(undefined),
    }),
    fc.record({
      m: method(['GET', 'DELETE']),
      path: sandboxId(t).map((id) => `/sandboxes/${id}`),
      body: fc.constant(undefined),
    }),
    fc.record({
      m: method(['GET']),
      path: fc
        .tuple(
          sandboxId(t),
          pick('', '?start=0', '?start=1&end=0', '?end=99999999999999', '?start=-1', '?start=1e3'),
        )
        .map(([id, query]) => `/sandboxes/${id}/metrics${query}`),
      body: fc.constant(undefined),
    }),
    fc.record({
      m: method(['POST']),
      path: fc
        .tuple(sandboxId(t), pick('pause', 'resume', 'connect', 'timeout', 'refreshes', 'nothing'))
        .map(([id, action]) => `/sandboxes/${id}/${action}`),
      body: bodyOf(timeoutBody),
    }),
  )
  return fc
    .record({ route, key: pick('valid', 'valid', 'valid', 'wrong', 'missing', 'huge'), type: contentType })
    .map(({ route, key, type }) => {
      const destructive = key === 'valid' && endsASandbox(t, route.m, route.path)
      const headers: Record<string, string> = { 'Content-Type': type }
      if (key === 'valid' && !destructive) headers['X-API-Key'] = t.apiKey
      if (key === 'wrong' || destructive) headers['X-API-Key'] = 'sk_wrong'
      if (key === 'huge') headers['X-API-Key'] = 'k'.repeat(8000)
      return {
        target: 'platform' as const,
        method: route.m,
        path: route.path,
        headers,
        ...(route.body ? { body: route.body } : {}),
        privileged: headers['X-API-Key'] === t.apiKey,
      }
    })
}

/** The IDE API, with its credential present, missing, forged or half there, and its guard's headers. */
function ideRequest(t: FuzzTargets): fc.Arbitrary<FuzzRequest> {
  const path = fc.oneof(
    pick('/stack', '/auth', '/templates', '/sandboxes', '/remotes', '/embed', '/nothing', ''),
    fc
      .tuple(sandboxId(t), pick('session', 'resume', 'timeout', 'pause', 'x'))
      .map(([id, a]) => `/sandboxes/${id}/${a}`),
    fc
      .tuple(fc.stringMatching(/^[0-9a-f]{16}$/), sandboxId(t))
      .map(([r, id]) => `/remotes/${r}/sandboxes/${id}/session`),
  )
  const body = bodyOf(
    jsonBody(
      fc.record(
        {
          token: fc.oneof(fc.constant(t.ideToken), fc.string({ maxLength: 50 })),
          templateId: pick('base', 'python-basics', '../../etc', ''),
          timeoutSeconds: oddNumber,
          seconds: oddNumber,
          apiKey: fc.string({ maxLength: 30 }),
          apiUrl: pick('https://127.0.0.1:1', 'http://169.254.169.254/', 'ftp://x', 'https://u:p@x.example'),
          domain: hostileText(t),
        },
        { requiredKeys: [] },
      ),
    ),
  )
  return fc
    .record({
      m: method(['GET', 'POST']),
      path,
      body,
      type: contentType,
      credential: pick('bearer', 'bearer', 'none', 'wrong-bearer', 'cookie-only', 'forged-pair'),
      host: pick('127.0.0.1', 'localhost', 'evil.example', '[::1]', ''),
      guard: fc.boolean(),
      site: pick(undefined, 'same-origin', 'cross-site', 'none'),
    })
    .map(({ m, path, body, type, credential, host, guard, site }) => {
      // DELETE and pause of the suite's sandboxes stay out; the credential checks are tested apart.
      const headers: Record<string, string> = { 'Content-Type': type, Host: host ? `${host}:${t.port}` : '' }
      if (guard) headers['X-Sandbox-IDE'] = '1'
      if (site) headers['Sec-Fetch-Site'] = site
      if (credential === 'bearer' && !endsASandbox(t, m, path)) headers.Authorization = `Bearer ${t.ideToken}`
      if (credential === 'wrong-bearer') headers.Authorization = 'Bearer nope'
      if (credential === 'cookie-only') headers.Cookie = `sandbox_ide_${t.port}=guess`
      if (credential === 'forged-pair') {
        headers.Cookie = `sandbox_ide_${t.port}=${t.ideToken}`
        headers['X-Sandbox-IDE-Key'] = t.ideToken
      }
      if (!headers.Host) delete headers.Host
      return {
        target: 'ide' as const,
        method: m,
        path: `/ide/api${path}`,
        headers,
        ...(body ? { body } : {}),
        privileged: headers.Authorization === `Bearer ${t.ideToken}`,
      }
    })
}

/** A sandbox's runtime through the router: Connect RPCs, /files, /health, the output acks. */
function runtimeRequest(t: FuzzTargets): fc.Arbitrary<FuzzRequest> {
  const readPath = fc.oneof(hostileText(t), pick('/home/user', '/', '/tmp', '.'))
  const pid = fc.oneof(fc.integer({ min: 0, max: 70000 }), oddNumber)
  const selector = pid.map((p) => ({ process: { pid: p } }))
  const rpc = fc.oneof(
    fc.record({
      name: pick('/filesystem.Filesystem/Stat', '/filesystem.Filesystem/ListDir'),
      body: jsonBody(fc.record({ path: readPath, depth: oddNumber }, { requiredKeys: ['path'] })),
    }),
    fc.record({
      name: pick('/filesystem.Filesystem/MakeDir', '/filesystem.Filesystem/Remove'),
      body: jsonBody(fc.record({ path: scratchPath })),
    }),
    fc.record({
      name: pick('/filesystem.Filesystem/Move'),
      body: jsonBody(fc.record({ source: scratchPath, destination: scratchPath })),
    }),
    fc.record({
      name: pick('/filesystem.Filesystem/CreateWatcher', '/filesystem.Filesystem/WatchDir'),
      body: jsonBody(fc.record({ path: readPath, recursive: fc.boolean() }, { requiredKeys: ['path'] })),
    }),
    fc.record({
      name: pick('/filesystem.Filesystem/GetWatcherEvents', '/filesystem.Filesystem/RemoveWatcher'),
      body: jsonBody(fc.record({ watcherId: fc.string({ maxLength: 40 }) })),
    }),
    fc.record({ name: pick('/process.Process/List'), body: jsonBody(fc.constant({})) }),
    fc.record({
      name: pick('/process.Process/Start'),
      body: jsonBody(
        fc.record(
          {
            process: fc.record(
              {
                cmd: pick('/bin/echo', 'true', '/bin/sh', 'no-such-command', '', '../../bin/echo'),
                args: pick([], ['-c', 'exit 3'], ['hello'], ['-c', 'echo $HOME']),
                cwd: readPath,
                envs: fc.dictionary(fc.string({ maxLength: 6 }), fc.string({ maxLength: 6 }), { maxKeys: 2 }),
              },
              { requiredKeys: ['cmd'] },
            ),
            pty: fc.record({ size: fc.record({ cols: oddNumber, rows: oddNumber }) }),
            tag: fc.string({ maxLength: 20 }),
          },
          { requiredKeys: ['process'] },
        ),
      ),
    }),
    fc.record({
      name: pick('/process.Process/Connect', '/process.Process/CloseStdin'),
      body: jsonBody(selector),
    }),
    fc.record({
      name: pick('/process.Process/SendInput'),
      body: jsonBody(
        fc
          .tuple(selector, fc.base64String({ maxLength: 40 }))
          .map(([s, d]) => ({ ...s, input: { stdin: d } })),
      ),
    }),
    fc.record({
      name: pick('/process.Process/SendSignal'),
      body: jsonBody(
        fc
          .tuple(selector, pick<string | number>('SIGNAL_SIGTERM', 'SIGNAL_SIGKILL', 'SIGNAL_UNSPECIFIED', 3))
          .map(([s, signal]) => ({ ...s, signal })),
      ),
    }),
    fc.record({
      name: pick('/process.Process/Update'),
      body: jsonBody(selector.map((s) => ({ ...s, pty: { size: { cols: 0, rows: 1e9 } } }))),
    }),
    fc.record({
      name: pick('/process.Process/StreamInput', '/filesystem.Filesystem/Nope', '/nothing'),
      body: jsonBody(fc.constant({})),
    }),
  )
  const filesPath = fc
    .tuple(fc.oneof(readPath, scratchPath), pick(undefined, 'user', 'root', 'nobody', '../x', ''))
    .map(
      ([p, user]) =>
        `/files?${new URLSearchParams({ path: p, ...(user === undefined ? {} : { username: user }) })}`,
    )
  const call = fc.oneof(
    {
      weight: 6,
      arbitrary: rpc.chain(({ name, body }) =>
        fc.record({
          m: method(['POST']),
          path: fc.constant(name),
          body: bodyOf(fc.constant(body)),
          type: fc.oneof(
            { weight: 5, arbitrary: fc.constant('application/json') },
            { weight: 2, arbitrary: pick('application/connect+json', 'application/proto', 'text/plain', '') },
          ),
        }),
      ),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        m: method(['GET', 'POST']),
        path: filesPath,
        body: bodyOf(fc.constant(Buffer.from('hello'))),
        type: pick(
          'application/octet-stream',
          'multipart/form-data; boundary=x',
          'multipart/form-data',
          'text/plain',
        ),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        m: method(['GET']),
        path: pick('/health', '/output-ack', '/'),
        body: fc.constant(undefined),
        type: fc.constant(''),
      }),
    },
  )
  return fc
    .record({
      call,
      sandbox: fc.oneof(
        { weight: 5, arbitrary: pick(...t.sandboxes) },
        { weight: 1, arbitrary: fc.constant({ id: 'a'.repeat(20), accessToken: 'x' }) },
      ),
      token: pick('valid', 'valid', 'valid', 'wrong', 'missing'),
      via: pick('host', 'shard', 'headers', 'bad-port'),
    })
    .map(({ call, sandbox, token, via }) => {
      const headers: Record<string, string> = { 'Connect-Protocol-Version': '1' }
      if (call.type) headers['Content-Type'] = call.type
      if (token === 'valid') headers['X-Access-Token'] = sandbox.accessToken
      if (token === 'wrong') headers['X-Access-Token'] = 'wrong-token'
      if (via === 'host') headers.Host = `49983-${sandbox.id}.localhost:${t.port}`
      if (via === 'shard') headers.Host = `s7.49983-${sandbox.id}.localhost:${t.port}`
      if (via === 'bad-port') headers.Host = `8000-${sandbox.id}.localhost:${t.port}`
      if (via === 'headers') {
        headers['E2b-Sandbox-Id'] = sandbox.id
        headers['E2b-Sandbox-Port'] = '49983'
      }
      return {
        target: 'runtime' as const,
        method: call.m,
        path: call.path,
        headers,
        ...(call.body ? { body: call.body } : {}),
        privileged: token === 'valid',
      }
    })
}

/** The embed demo's site: its pages, its session, its sign-in. */
function demoRequest(t: FuzzTargets): fc.Arbitrary<FuzzRequest> {
  return fc
    .record({
      m: method(['GET', 'POST']),
      path: pick('/', '/demo.js', '/session', '/auth', '/nothing', '/../../etc/passwd', '/%00'),
      site: pick(undefined, 'same-origin', 'cross-site'),
      body: bodyOf(
        jsonBody(fc.record({ token: fc.oneof(fc.constant('nope'), fc.string({ maxLength: 40 })) })),
      ),
    })
    .map(({ m, path, site, body }) => ({
      target: 'demo' as const,
      method: m,
      path,
      headers: {
        Host: `embed-demo.localhost:${t.port}`,
        'Content-Type': 'application/json',
        ...(site ? { 'Sec-Fetch-Site': site } : {}),
      },
      ...(body ? { body } : {}),
      privileged: false,
    }))
}

/** Any request to any server of the stack; a failure reports it in one line. */
export function fuzzRequest(t: FuzzTargets): fc.Arbitrary<FuzzRequest> {
  return fc
    .oneof(
      { weight: 3, arbitrary: platformRequest(t) },
      { weight: 3, arbitrary: ideRequest(t) },
      { weight: 5, arbitrary: runtimeRequest(t) },
      { weight: 1, arbitrary: demoRequest(t) },
    )
    .map((req) => Object.assign(req, { [fc.toStringMethod]: () => showRequest(req) }))
}
