import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/** Host files bound over the sandbox's /etc, and the blanks that hide host secrets. */
export interface SandboxEtcFiles {
  passwd: string
  group: string
  hosts: string
  /** An empty file, bound over host files the sandbox must not read. */
  emptyFile: string
  /** An empty folder, bound over host folders the sandbox must not read. */
  emptyDir: string
}

/** The sandbox's one user: uid and gid 1000, as in E2B's images. */
export const sandboxUser = { name: 'user', uid: 1000, gid: 1000, home: '/home/user', shell: '/bin/bash' }

export const sandboxHostname = 'sandbox'

const passwd = `root:x:0:0:root:/root:/bin/bash
${sandboxUser.name}:x:${sandboxUser.uid}:${sandboxUser.gid}:${sandboxUser.name}:${sandboxUser.home}:${sandboxUser.shell}
nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin
`

const group = `root:x:0:
tty:x:5:
${sandboxUser.name}:x:${sandboxUser.gid}:
nogroup:x:65534:
`

const hosts = `127.0.0.1\tlocalhost
127.0.1.1\t${sandboxHostname}
::1\tlocalhost ip6-localhost ip6-loopback
`

/** Writes a file only when its content differs, atomically, so running sandboxes never see half of one. */
function writeIfChanged(file: string, content: string): void {
  try {
    if (readFileSync(file, 'utf8') === content) return
  } catch {}
  const partial = `${file}.${process.pid}.partial`
  writeFileSync(partial, content, { mode: 0o644 })
  renameSync(partial, file)
}

/** Creates the sandbox's passwd, group and hosts (and the blanks) under `stateDir`. */
export function writeSandboxEtcFiles(stateDir: string): SandboxEtcFiles {
  const dir = join(stateDir, 'sandbox-etc')
  const emptyDir = join(dir, 'empty')
  mkdirSync(emptyDir, { recursive: true, mode: 0o755 })
  const files = {
    passwd: join(dir, 'passwd'),
    group: join(dir, 'group'),
    hosts: join(dir, 'hosts'),
    emptyFile: join(dir, 'empty-file'),
    emptyDir,
  }
  writeIfChanged(files.passwd, passwd)
  writeIfChanged(files.group, group)
  writeIfChanged(files.hosts, hosts)
  writeIfChanged(files.emptyFile, '')
  return files
}
