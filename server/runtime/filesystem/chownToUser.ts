import { lchown } from 'node:fs/promises'
import type { User } from '../users'

/** Only root may give files away; an unprivileged runtime already owns what it creates. */
const runsAsRoot = process.getuid?.() === 0
const ownUid = process.getuid?.()

/**
 * Makes `user` own `path` (not following a symlink), as envd does for what it creates. An
 * unprivileged runtime running as that user sets the owner it already has, best effort, so that
 * watchers see envd's chown (CHMOD) all the same.
 */
export async function chownToUser(path: string, user: User): Promise<void> {
  if (runsAsRoot) await lchown(path, user.uid, user.gid)
  else if (user.uid === ownUid) await lchown(path, user.uid, user.gid).catch(() => {})
}
