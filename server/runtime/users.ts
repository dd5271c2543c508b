import { readFileSync } from 'node:fs'

/** An OS user as /etc/passwd describes it. */
export interface User {
  name: string
  uid: number
  gid: number
  home: string
  shell: string
}

interface Accounts {
  byName: Map<string, User>
  userNames: Map<number, string>
  groupNames: Map<number, string>
}

function readLines(file: string): string[][] {
  try {
    return readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => line && !line.startsWith('#'))
      .map((line) => line.split(':'))
  } catch {
    return []
  }
}

function loadAccounts(): Accounts {
  const byName = new Map<string, User>()
  const userNames = new Map<number, string>()
  for (const [name, , uid, gid, , home, shell] of readLines('/etc/passwd')) {
    if (!name || uid === undefined || gid === undefined) continue
    const user = { name, uid: Number(uid), gid: Number(gid), home: home || '/', shell: shell || '/bin/sh' }
    byName.set(name, user)
    if (!userNames.has(user.uid)) userNames.set(user.uid, name)
  }
  const groupNames = new Map<number, string>()
  for (const [name, , gid] of readLines('/etc/group')) {
    if (name && gid !== undefined && !groupNames.has(Number(gid))) groupNames.set(Number(gid), name)
  }
  return { byName, userNames, groupNames }
}

/** The machine's users and groups, read once; `home` overrides the default user's home. */
export class UserDirectory {
  private readonly accounts = loadAccounts()

  constructor(
    readonly defaultUserName: string,
    private readonly homeOverride?: string,
  ) {}

  /** The user named `name`, or undefined when the machine has none by that name. */
  lookup(name: string): User | undefined {
    const user = this.accounts.byName.get(name)
    if (name !== this.defaultUserName) return user
    const base = user ?? {
      name,
      uid: process.getuid?.() ?? 0,
      gid: process.getgid?.() ?? 0,
      home: '/',
      shell: '/bin/sh',
    }
    return this.homeOverride ? { ...base, home: this.homeOverride } : base
  }

  /** The default user; always resolvable, since it is the runtime's own identity at worst. */
  get defaultUser(): User {
    return this.lookup(this.defaultUserName) as User
  }

  /** Owner name for a uid, or the number as text (as envd does when lookup fails). */
  userName(uid: number): string {
    return this.accounts.userNames.get(uid) ?? String(uid)
  }

  /** Group name for a gid, or the number as text. */
  groupName(gid: number): string {
    return this.accounts.groupNames.get(gid) ?? String(gid)
  }
}
