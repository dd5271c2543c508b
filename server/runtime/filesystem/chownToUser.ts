import { lchown } from 'node:fs/promises'
import type { User } from '../users'

/** Only root may give files away; an unprivileged runtime already owns what it creates. */
const runsAsRoot = process.getuid?.() === 0

/** Makes `user` own `path` (not following a symlink), as envd does for what it creates. */
export async function chownToUser(path: string, user: User): Promise<void> {
  if (runsAsRoot) await lchown(path, user.uid, user.gid)
}
