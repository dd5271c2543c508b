import { execFileSync, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { findPortOwners, parsePortOwners, portOwnersScript } from './portOwners'
import { parseListening } from './sandboxPorts'

describe('port owners', () => {
  it('reads pid and command line by socket inode, the parent where a worker shares the socket', () => {
    const owners = parsePortOwners(
      '212 socket:[9001] node server.js --port 3000 \n' +
        '204 socket:[9001] node server.js --port 3000 \n' +
        '77 socket:[42] python3 -m http.server 8000 \n' +
        'find: ‘/proc/5/fd’: Permission denied\n',
    )
    expect(owners).toEqual(
      new Map([
        [9001, { pid: 204, command: 'node server.js --port 3000' }],
        [42, { pid: 77, command: 'python3 -m http.server 8000' }],
      ]),
    )
  })

  it('finds the real process behind a listening socket on this machine, by the script the IDE runs', async () => {
    const server = spawn('python3', ['-m', 'http.server', '0', '--bind', '127.0.0.1'], { stdio: 'pipe' })
    try {
      // Its port is in its first line of output; its socket's inode is in /proc/net/tcp.
      const port = await new Promise<number>((resolve) =>
        server.stdout.on('data', (chunk) => {
          const found = /port (\d+)/.exec(String(chunk))
          if (found) resolve(Number(found[1]))
        }),
      )
      const inode = parseListening(readFileSync('/proc/net/tcp', 'utf8')).find((p) => p.port === port)?.inode
      expect(inode).toBeGreaterThan(0)
      const owners = await findPortOwners(
        {
          run: async (cmd, options) => {
            const stdout = execFileSync(cmd, options?.args ?? [], { encoding: 'utf8' })
            return {
              exitCode: 0,
              status: 'exit status 0',
              timedOut: false,
              stdout,
              stderr: '',
              output: stdout,
            }
          },
        },
        [inode as number],
      )
      expect(owners.get(inode as number)).toEqual({
        pid: server.pid,
        command: expect.stringMatching(/http\.server 0/),
      })
    } finally {
      server.kill()
    }
  })

  it('puts nothing but numbers from the tables into the script', () => {
    expect(portOwnersScript([42, 7.9])).toContain("-lname 'socket:\\[42\\]' -o -lname 'socket:\\[7\\]'")
  })
})
