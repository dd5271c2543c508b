import { randomBytes } from 'node:crypto'
import { statSync } from 'node:fs'
import { join } from 'node:path'
import { readRecordFile, writeRecordFile } from '../recordFile'

/** The file in the data folder that holds the IDE's token. */
export const ideTokenFileName = 'ide-token'

/** A token for the IDE's link: 32 random bytes, URL-safe. */
function newIdeToken(): string {
  return randomBytes(32).toString('base64url')
}

/**
 * The IDE's token: the secret in the address `npm start` prints, which nothing inside a sandbox
 * can read (the data folder is outside every sandbox's view, and the file is mode 0600). It is
 * made on first use and read again whenever the file changes, so a rotation by another process
 * (`npm run ide-link -- --rotate`) takes effect at once in a running stack.
 */
export class IdeToken {
  private cached: { token: string; stamp: string } | undefined

  constructor(private readonly dataDir: string) {}

  get path(): string {
    return join(this.dataDir, ideTokenFileName)
  }

  /** The current token; made and written when there is none. */
  current(): string {
    const stat = statSync(this.path, { throwIfNoEntry: false })
    if (!stat) return this.rotate()
    const stamp = `${stat.mtimeMs}:${stat.size}:${stat.ino}`
    if (this.cached?.stamp === stamp) return this.cached.token
    const token = readRecordFile(this.path)?.trim()
    if (!token) return this.rotate()
    this.cached = { token, stamp }
    return token
  }

  /** Replaces the token with a new one: every link and browser signed in with the old one stops working. */
  rotate(): string {
    const token = newIdeToken()
    // A record file: a reader never sees half a token, and a power cut never loses a new one.
    writeRecordFile(this.path, `${token}\n`)
    this.cached = undefined
    return token
  }
}
