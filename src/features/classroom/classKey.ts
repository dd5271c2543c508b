import type { ClassPlace } from '../../sandbox/localStack'

/**
 * A class in the dashboard's query keys: where it is, then its name (a class on E2B may have the
 * name of one of the stack's own, and each has its own gradebook).
 */
export const classKey = (place: ClassPlace, name: string) => [place.remoteId ?? '', name]
