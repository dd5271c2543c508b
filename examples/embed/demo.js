// The demo's script: what a documentation page writes to embed a sandbox with the typed client.
import { connectIde } from '/embed-client.js'

const log = (line) => {
  document.getElementById('log').textContent += `${new Date().toLocaleTimeString()}  ${line}\n`
}

// A real site's backend creates (or looks up) the sandbox with its E2B key and returns only the
// runtime URL and the sandbox's access token; here the stack plays that backend, for whoever has
// the stack's link: the token in this page's address is traded for a sign-in of this host, once.
const keyItem = 'embed-demo:page-key'
const token = new URLSearchParams(location.hash.slice(1)).get('token')
if (token) {
  history.replaceState(null, '', location.pathname + location.search)
  const signIn = await fetch('/auth', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ token }),
  })
  const answer = await signIn.json()
  if (!signIn.ok) throw new Error(answer.message)
  localStorage.setItem(keyItem, answer.pageKey)
}
const answer = await fetch('/session', {
  headers: { 'X-Sandbox-IDE-Key': localStorage.getItem(keyItem) ?? '' },
})
const session = await answer.json()
if (!session.runtimeUrl) {
  log(`no session: ${session.message}`)
  throw new Error(session.message)
}

const iframe = document.getElementById('ide')
// `?panels=terminal` on this page's address shows a terminal-only embed.
const panels = new URLSearchParams(location.search).get('panels') ?? 'files,editor,terminal'
iframe.src = `${session.ideUrl}/embed?${new URLSearchParams({ panels })}`
const ide = await connectIde(iframe, { runtimeUrl: session.runtimeUrl, accessToken: session.accessToken })
log('ready')

for (const event of ['fileSaved', 'processExited', 'stateChanged'])
  ide.on(event, (data) => log(`${event} ${JSON.stringify(data)}`))

// The example file, unless the reader already has one (their edits are kept).
await ide
  .readFile('embed-demo/hello.py')
  .catch(() => ide.writeFile('embed-demo/hello.py', 'print("Hello from the sandbox!")\n'))
await ide.openFile('embed-demo/hello.py')

let dark = matchMedia('(prefers-color-scheme: dark)').matches
const actions = {
  open: () => ide.openFile('embed-demo/hello.py'),
  run: () => ide.runCommand('python3 hello.py', { cwd: 'embed-demo' }),
  theme: () => {
    dark = !dark
    return ide.setTheme(dark ? 'dark' : 'light')
  },
  'terminal-only': () => ide.setLayout(['terminal']),
  'all-panels': () => ide.setLayout(['files', 'editor', 'terminal']),
}
for (const [id, action] of Object.entries(actions)) {
  const button = document.getElementById(id)
  button.disabled = false
  button.onclick = () =>
    action().then(
      (result) => log(`${id}: ${JSON.stringify(result)}`),
      (err) => log(`${id} failed (${err.code}): ${err.message}`),
    )
}
