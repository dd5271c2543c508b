import { describe, expect, it } from 'vitest'
import { findPortOwners, parsePortOwners, portOwnersScript } from './portOwners'

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

  it('puts nothing but numbers from the tables into the script', () => {
    expect(portOwnersScript([42, 7.9])).toContain("-lname 'socket:\\[42\\]' -o -lname 'socket:\\[7\\]'")
  })

  // The script itself runs for real in e2e/ports.spec.ts, against a server in a sandbox.
  it('asks nothing of the sandbox when no socket is new, and one command for several', async () => {
    const commands: string[][] = []
    const processes = {
      run: async (cmd: string, options?: { args?: string[] }) => {
        commands.push([cmd, ...(options?.args ?? [])])
        const stdout = '7 socket:[42] node a.js \n8 socket:[43] node b.js \n'
        return { exitCode: 0, status: 'exit status 0', timedOut: false, stdout, stderr: '', output: stdout }
      },
    }
    expect(await findPortOwners(processes, [])).toEqual(new Map())
    expect(commands).toEqual([])
    const owners = await findPortOwners(processes, [42, 43])
    expect(commands).toHaveLength(1)
    expect(commands[0]?.slice(0, 2)).toEqual(['/bin/sh', '-c'])
    expect(owners.get(43)).toEqual({ pid: 8, command: 'node b.js' })
  })
})
