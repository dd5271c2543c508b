import { Writable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { writesOfThisTurn } from './writesOfThisTurn'

/** A socket that records each system call it would make: one per writev. */
function recordingSocket() {
  const calls: string[][] = []
  const socket = new Writable({
    writev(chunks, done) {
      calls.push(chunks.map(({ chunk }) => String(chunk)))
      done()
    },
  })
  return { socket, calls }
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve))

describe('writesOfThisTurn', () => {
  it('sends what was written in one turn of the event loop in one call, once the turn is over', async () => {
    const { socket, calls } = recordingSocket()
    const batch = writesOfThisTurn(socket)
    for (const piece of ['a', 'b', 'c']) {
      batch()
      socket.write(piece)
    }
    await Promise.resolve()
    expect(calls).toEqual([])
    await nextTurn()
    expect(calls).toEqual([['a', 'b', 'c']])
  })

  it('corks again in the next turn, and leaves the socket uncorked after it', async () => {
    const { socket, calls } = recordingSocket()
    const batch = writesOfThisTurn(socket)
    batch()
    socket.write('a')
    await nextTurn()
    batch()
    socket.write('b')
    batch()
    socket.write('c')
    await nextTurn()
    expect(calls).toEqual([['a'], ['b', 'c']])
    expect(socket.writableCorked).toBe(0)
    socket.write('d')
    expect(calls.at(-1)).toEqual(['d'])
  })
})
