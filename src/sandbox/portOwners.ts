import type { SandboxProcesses } from './sandboxProcesses'

/** The process that listens on a port. */
export interface PortOwner {
  pid: number
  /** Its command line, arguments joined by spaces. */
  command: string
}

/**
 * A shell script that prints `PID socket:[INODE] COMMAND LINE` for each process holding one of
 * the sockets: their inodes come from /proc/net/tcp, and /proc/PID/fd links name them. Plain
 * find, tr and sh, as any Debian-based image has them (E2B's among them).
 */
export function portOwnersScript(inodes: readonly number[]): string {
  const tests = inodes.map((inode) => `-lname 'socket:\\[${Math.trunc(inode)}\\]'`).join(' -o ')
  return (
    `find /proc/[0-9]*/fd -maxdepth 1 \\( ${tests} \\) -printf '%h %l\\n' 2>/dev/null |` +
    ` while read -r dir link; do pid=\${dir#/proc/}; pid=\${pid%/fd};` +
    ` printf '%s %s %s\\n' "$pid" "$link" "$(tr '\\0' ' ' < "/proc/$pid/cmdline" 2>/dev/null)"; done`
  )
}

/** What `portOwnersScript` printed, by socket inode (a socket shared by a parent and its child goes to the first). */
export function parsePortOwners(text: string): Map<number, PortOwner> {
  const owners = new Map<number, PortOwner>()
  for (const line of text.split('\n')) {
    const match = /^(\d+) socket:\[(\d+)\] ?(.*)$/.exec(line)
    if (!match) continue
    const inode = Number(match[2])
    const pid = Number(match[1])
    const known = owners.get(inode)
    // The parent (lower pid, as a rule) started the server; a forked worker inherits its socket.
    if (!known || pid < known.pid) owners.set(inode, { pid, command: (match[3] ?? '').trim().slice(0, 300) })
  }
  return owners
}

/** The processes that hold these listening sockets, asked of the sandbox in one short command. */
export async function findPortOwners(
  processes: Pick<SandboxProcesses, 'run'>,
  inodes: readonly number[],
): Promise<Map<number, PortOwner>> {
  const wanted = inodes.filter((inode) => Number.isSafeInteger(inode) && inode > 0)
  if (wanted.length === 0) return new Map()
  const result = await processes.run('/bin/sh', {
    args: ['-c', portOwnersScript(wanted)],
    timeoutMs: 10_000,
    tag: 'ide-port-owners',
  })
  return parsePortOwners(result.stdout)
}
