import { PlatformError } from '../platformError'

/** What a class may be called: letters, digits, dots, dashes and underscores, up to 64. */
const classNamePattern = /^[A-Za-z0-9._-]{1,64}$/

/** The class's name from a route's path, decoded; one it may not be called is a 400. */
export function classNameParam(encoded: string | undefined): string {
  const name = decodeURIComponent(encoded ?? '')
  if (!classNamePattern.test(name)) throw new PlatformError(400, 'invalid class name')
  return name
}
