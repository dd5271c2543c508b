import { mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { writeRecordFile } from '../recordFile'

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

/**
 * The host's system accounts (ids below 1000: `_apt`, `messagebus`, `ssl-cert`, which packages'
 * files and dpkg's overrides name) and `nobody`, never its people, and the sandbox's `user`; the
 * password field is always `x` (no hashes here: /etc/shadow stays hidden).
 */
function systemAccounts(file: string, idField: number, fallback: string[]): string[] {
  let lines: string[]
  try {
    lines = readFileSync(file, 'utf8').split('\n')
  } catch {
    return fallback
  }
  const kept = lines
    .map((line) => line.split(':'))
    .filter((fields) => {
      const id = Number(fields[idField])
      return (
        fields.length > idField &&
        fields[0] !== sandboxUser.name &&
        Number.isInteger(id) &&
        (id < 1000 || id === 65534) &&
        id !== sandboxUser.uid
      )
    })
    .map((fields) => [fields[0], 'x', ...fields.slice(2)].join(':'))
  return kept.length > 0 ? kept : fallback
}

const userLine = `${sandboxUser.name}:x:${sandboxUser.uid}:${sandboxUser.gid}:${sandboxUser.name}:${sandboxUser.home}:${sandboxUser.shell}`

const passwd = () =>
  `${[
    ...systemAccounts('/etc/passwd', 2, [
      'root:x:0:0:root:/root:/bin/bash',
      'nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin',
    ]),
    userLine,
  ].join('\n')}\n`

const group = () =>
  `${[
    // Supplementary members are the host's people: none of them is in a sandbox.
    ...systemAccounts('/etc/group', 2, ['root:x:0:', 'tty:x:5:', 'nogroup:x:65534:']).map((line) =>
      line.replace(/:[^:]*$/, ':'),
    ),
    `${sandboxUser.name}:x:${sandboxUser.gid}:`,
  ].join('\n')}\n`

const hosts = `127.0.0.1\tlocalhost
127.0.1.1\t${sandboxHostname}
::1\tlocalhost ip6-localhost ip6-loopback
`

/** Writes a file only when its content differs, atomically, so running sandboxes never see half of one. */
function writeIfChanged(file: string, content: string): void {
  try {
    if (readFileSync(file, 'utf8') === content) return
  } catch {}
  writeRecordFile(file, content, 0o644)
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
  writeIfChanged(files.passwd, passwd())
  writeIfChanged(files.group, group())
  writeIfChanged(files.hosts, hosts)
  writeIfChanged(files.emptyFile, '')
  return files
}
