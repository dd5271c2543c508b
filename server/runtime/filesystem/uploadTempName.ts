import { randomBytes } from 'node:crypto'

const pattern = /^\.e2b-upload-[0-9a-f]{20}$/

/**
 * A fresh name for an upload's temporary file, written beside its target and renamed over it
 * when complete. Watchers recognise these names and never report them.
 */
export function uploadTempName(): string {
  return `.e2b-upload-${randomBytes(10).toString('hex')}`
}

/** Whether `name` (a base name) is an upload's temporary file. */
export function isUploadTempName(name: string): boolean {
  return pattern.test(name)
}
