import { PlatformError } from '../platformError'
import { isLoopbackPeer } from './loopbackPeer'

/**
 * Slows down guessing of tokens from the network: an address that failed `limit` times within
 * `windowMs` gets 429 until its oldest failure is that old. Loopback is not counted (the owner's
 * own machine, and the tests that try bad tokens by the hundred).
 */
export class FailureLimiter {
  private readonly failures = new Map<string, number[]>()

  constructor(
    private readonly limit = 20,
    private readonly windowMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  private recent(address: string): number[] {
    const since = this.now() - this.windowMs
    const times = (this.failures.get(address) ?? []).filter((t) => t > since)
    if (times.length === 0) this.failures.delete(address)
    else this.failures.set(address, times)
    return times
  }

  /** Throws 429 when this address has failed too often lately. */
  check(address: string | undefined): void {
    if (!address || isLoopbackPeer(address)) return
    const times = this.recent(address)
    if (times.length >= this.limit) {
      const wait = Math.ceil(((times[0] as number) + this.windowMs - this.now()) / 1000)
      throw new PlatformError(429, `too many failed sign-ins from this address: try again in ${wait} s`)
    }
  }

  /** Counts a failed credential from this address. */
  failed(address: string | undefined): void {
    if (!address || isLoopbackPeer(address)) return
    // Bounded: a flood from many addresses drops the oldest entries, never grows without end.
    if (this.failures.size > 10_000) {
      for (const key of [...this.failures.keys()].slice(0, 1000)) this.failures.delete(key)
    }
    this.failures.set(address, [...this.recent(address), this.now()])
  }
}
