// The floor the IDE's code intelligence is measured against (`npm run bench -- lsp`): the same
// language server, started by the same command inside the same sandbox, spoken to over plain
// stdio pipes by this small client, with the capabilities the IDE declares. What the IDE adds on
// top (the runtime's process API, the network, Monaco) is the difference between the two.
// Plain Node, built-ins only: it is written into the sandbox and run there.
//   node lspFloor.mjs config.json > result.json
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'

const config = JSON.parse(readFileSync(process.argv[2], 'utf8'))
const started = performance.now()
const server = spawn('bash', ['-l', '-c', config.command], {
  cwd: config.cwd,
  stdio: ['pipe', 'pipe', 'ignore'],
})

let nextId = 1
const pending = new Map()
const notificationWaiters = []
/** The last diagnostics each document was sent (servers that push them). */
const pushed = new Map()
let buffered = Buffer.alloc(0)

function send(message) {
  const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', ...message }), 'utf8')
  server.stdin.write(`Content-Length: ${body.length}\r\n\r\n`)
  server.stdin.write(body)
}

function request(method, params) {
  const id = nextId++
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject })
    send({ id, method, params })
  })
}

const notify = (method, params) => send({ method, params })

/** Resolves with the first notification of `method` that `accept` takes. */
function nextNotification(method, accept = () => true) {
  return new Promise((resolve) => notificationWaiters.push({ method, accept, resolve }))
}

function answer(message) {
  // As the IDE answers what a server asks (LanguageClient.listen).
  let result = null
  if (message.method === 'workspace/configuration')
    result = message.params.items.map((item) =>
      item.section ? (config.settings?.[item.section] ?? null) : null,
    )
  else if (message.method === 'workspace/workspaceFolders') result = [{ uri: config.rootUri, name: 'home' }]
  send({ id: message.id, result })
}

function dispatch(message) {
  if (message.id !== undefined && message.method !== undefined) return answer(message)
  if (message.id !== undefined) {
    const call = pending.get(message.id)
    pending.delete(message.id)
    if (message.error) call?.reject(new Error(message.error.message))
    else call?.resolve(message.result)
    return
  }
  if (message.method === 'textDocument/publishDiagnostics')
    pushed.set(message.params.uri, message.params.diagnostics)
  const index = notificationWaiters.findIndex((w) => w.method === message.method && w.accept(message.params))
  if (index >= 0) notificationWaiters.splice(index, 1)[0].resolve(message.params)
}

server.stdout.on('data', (chunk) => {
  buffered = Buffer.concat([buffered, chunk])
  for (;;) {
    const headerEnd = buffered.indexOf('\r\n\r\n')
    if (headerEnd < 0) return
    const length = Number(
      /Content-Length: (\d+)/i.exec(buffered.subarray(0, headerEnd).toString('ascii'))?.[1],
    )
    if (buffered.length < headerEnd + 4 + length) return
    const body = buffered.subarray(headerEnd + 4, headerEnd + 4 + length)
    buffered = buffered.subarray(headerEnd + 4 + length)
    dispatch(JSON.parse(body.toString('utf8')))
  }
})

/** Diagnostics of the document, pulled where the server offers it, as the IDE does, else pushed. */
async function diagnostics(capabilities) {
  if (capabilities.diagnosticProvider) {
    for (;;) {
      const report = await request('textDocument/diagnostic', { textDocument: { uri: config.uri } })
      if (report?.kind === 'full' && report.items.length > 0) return report.items
      await new Promise((r) => setTimeout(r, 50))
    }
  }
  return (
    await nextNotification(
      'textDocument/publishDiagnostics',
      (p) => p.uri === config.uri && p.diagnostics.length > 0,
    )
  ).diagnostics
}

const init = await request('initialize', {
  processId: null,
  clientInfo: { name: 'lsp floor' },
  rootUri: config.rootUri,
  workspaceFolders: [{ uri: config.rootUri, name: 'home' }],
  capabilities: config.capabilities,
  initializationOptions: config.initializationOptions ?? null,
})
notify('initialized', {})
notify('textDocument/didOpen', {
  textDocument: { uri: config.uri, languageId: config.languageId, version: 1, text: config.text },
})
await diagnostics(init.capabilities)
const coldMs = performance.now() - started

const errorsIn = (items) => items.filter((d) => d.severity === 1 || d.severity === undefined).length
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

/** Waits until the document's error count passes `accept`: pulled again and again, or as last pushed. */
async function errorsUntil(capabilities, accept) {
  for (;;) {
    const items = capabilities.diagnosticProvider
      ? ((await request('textDocument/diagnostic', { textDocument: { uri: config.uri } }))?.items ?? [])
      : (pushed.get(config.uri) ?? [])
    if (accept(errorsIn(items))) return
    await sleep(5)
  }
}

// Diagnostics after an edit: the line the IDE's bench types, sent whole, to one more error; then
// taken away again, to the count before.
let version = 1
const change = (text) =>
  notify('textDocument/didChange', {
    textDocument: { uri: config.uri, version: ++version },
    contentChanges: [{ text }],
  })
let before = 0
await errorsUntil(init.capabilities, (n) => {
  before = n
  return true
})
const diagnosticsAfterEdit = []
for (const line of config.badLines) {
  const t = performance.now()
  change(`${config.text}\n${line}`)
  await errorsUntil(init.capabilities, (n) => n > before)
  diagnosticsAfterEdit.push(performance.now() - t)
  change(config.text)
  await errorsUntil(init.capabilities, (n) => n <= before)
}

const completion = []
for (let i = 0; i < config.requests; i++) {
  const t = performance.now()
  const result = await request('textDocument/completion', {
    textDocument: { uri: config.uri },
    position: config.position,
    context: { triggerKind: 1 },
  })
  const items = Array.isArray(result) ? result : (result?.items ?? [])
  if (items.length === 0) throw new Error('the server offered no completion')
  completion.push(performance.now() - t)
}

await request('shutdown', null).catch(() => {})
notify('exit', null)
process.stdout.write(JSON.stringify({ coldMs, completion, diagnosticsAfterEdit }))
setTimeout(() => process.exit(0), 500)
