import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process'
import { createInterface } from 'node:readline'

/**
 * Starts host tools (mount, umount, mkfs) from a small Python process instead of from the stack.
 * Every spawn forks the process that asks, and a fork copies its page tables while the event
 * loop waits: 6 ms for an empty Node, 15-40 ms for a stack serving a class. A grader sandbox
 * mounts and unmounts about twenty times, so thirty submissions at a deadline held the loop for
 * seconds in all, and every student's keystroke waited behind them (`npm run bench -- grading`).
 * Python forks in a fraction of that (vfork), on its own core, with the stack's loop free.
 *
 * One line of JSON each way: `{id, file, args}` in, `{id, code, signal, stdout, stderr}` or
 * `{id, error}` out; each request runs on a thread of its own, so a slow `mkfs` holds up nothing.
 * The runner is in a session of its own (`detached`), as the tools were: a Ctrl-C meant for the
 * stack must not cut a mount or an unmount short. It ends when the stack does (its stdin closes).
 */
const runnerSource = `
import json, subprocess, sys, threading
lock = threading.Lock()
def answer(reply):
    with lock:
        sys.stdout.write(json.dumps(reply) + "\\n")
        sys.stdout.flush()
def run(request):
    try:
        done = subprocess.run([request["file"], *request["args"]], stdin=subprocess.DEVNULL, capture_output=True)
        code = done.returncode
        answer({"id": request["id"], "code": code if code >= 0 else None, "signal": -code if code < 0 else None,
                "stdout": done.stdout.decode("utf-8", "replace"), "stderr": done.stderr.decode("utf-8", "replace")})
    except OSError as err:
        answer({"id": request["id"], "error": str(err)})
for line in sys.stdin:
    threading.Thread(target=run, args=(json.loads(line),), daemon=True).start()
`

export interface ToolResult {
  code: number | null
  /** The signal's number when the tool was killed by one. */
  signal: number | null
  stdout: string
  stderr: string
}

type Reply = ToolResult & { id: number; error?: string }

interface Pending {
  resolve(result: ToolResult): void
  reject(err: Error): void
}

let runner: ChildProcessWithoutNullStreams | undefined
let nextId = 1
const pending = new Map<number, Pending>()

function failAll(err: Error): void {
  for (const waiter of pending.values()) waiter.reject(err)
  pending.clear()
}

function started(): ChildProcessWithoutNullStreams {
  if (runner) return runner
  const child = spawn('python3', ['-I', '-c', runnerSource], { detached: true, stdio: 'pipe' })
  runner = child
  // Neither the runner nor its pipes keep the stack alive; requests in flight do (see below).
  child.unref()
  for (const stream of [child.stdin, child.stdout, child.stderr])
    (stream as unknown as { unref?(): void }).unref?.()
  createInterface({ input: child.stdout }).on('line', (line) => {
    let reply: Reply
    try {
      reply = JSON.parse(line) as Reply
    } catch {
      return
    }
    const waiter = pending.get(reply.id)
    if (!waiter) return
    pending.delete(reply.id)
    const { error, code, signal, stdout, stderr } = reply
    if (error !== undefined) waiter.reject(new Error(error))
    else waiter.resolve({ code, signal, stdout, stderr })
    if (pending.size === 0) (child.stdout as unknown as { unref?(): void }).unref?.()
  })
  let stderr = ''
  child.stderr.on('data', (chunk) => {
    stderr = (stderr + chunk).slice(-2000)
  })
  const gone = (why: string) => {
    if (runner === child) runner = undefined
    failAll(new Error(`the tool runner ${why}${stderr ? `: ${stderr.trim()}` : ''}`))
  }
  child.once('error', (err) => gone(`could not start (${err.message})`))
  child.once('exit', (code, signal) => gone(`ended (${signal ?? `exit code ${code}`})`))
  child.stdin.on('error', () => {})
  return child
}

/** Runs `file` with `args` on the host through the runner, and waits for it to end. */
export function runOnHost(file: string, args: readonly string[]): Promise<ToolResult> {
  const child = started()
  const id = nextId++
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject })
    // A request in flight keeps the stack alive until its answer comes.
    ;(child.stdout as unknown as { ref?(): void }).ref?.()
    child.stdin.write(`${JSON.stringify({ id, file, args })}\n`)
  })
}
