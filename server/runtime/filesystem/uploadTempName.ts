import { randomBytes } from 'node:crypto'

const pattern = /^\.e2b-upload-[0-9a-f]{20}(-r)?$/

/**
 * A fresh name for an upload's temporary file, written beside its target. Watchers recognise
 * these names and never report them. One that will replace an existing file says so (`-r`), so
 * that a watcher reports its landing by rename as the write it is, not as a new file.
 */
export function uploadTempName(replacing = false): string {
  return `.e2b-upload-${randomBytes(10).toString('hex')}${replacing ? '-r' : ''}`
}

/** Whether `name` (a base name) is an upload's temporary file. */
export function isUploadTempName(name: string): boolean {
  return pattern.test(name)
}

/** Whether an upload's temporary file named `name` was made to replace an existing file. */
export function replacesTarget(name: string): boolean {
  return name.endsWith('-r')
}
