import { describe, expect, it } from 'vitest'
import { listeningPorts, parseListening, portUrl, sandboxLink } from './sandboxPorts'

// Lines as Linux prints them (trimmed to the columns that matter, which the parser reads by position).
const tcp = `  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 0100007F:C34F 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 1
   1: 00000000:1F40 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 2
   2: 0100007F:1F40 0100007F:9A12 01 00000000:00000000 00:00000000 00000000  1000        0 3
   3: 0100007F:0BB8 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 4
`
const tcp6 = `  sl  local_address                         remote_address                        st
   0: 00000000000000000000000000000000:1389 00000000000000000000000000000000:0000 0A
   1: 00000000000000000000000001000000:0BB8 00000000000000000000000000000000:0000 0A
`

describe('sandbox ports', () => {
  it('reads the listening sockets of /proc/net/tcp, and whether they take every address', () => {
    expect(parseListening(tcp)).toEqual([
      { port: 49999, allAddresses: false, inode: 1 },
      { port: 8000, allAddresses: true, inode: 2 },
      { port: 3000, allAddresses: false, inode: 4 },
    ])
    expect(parseListening('')).toEqual([])
  })

  it('merges IPv4 and IPv6, sorted, without the runtime’s own port', async () => {
    const runtimeLine = tcp.replace(':C34F ', `:${(49983).toString(16).toUpperCase()} `)
    const ports = await listeningPorts({
      read: async (path) => new TextEncoder().encode(path.endsWith('6') ? tcp6 : runtimeLine),
    })
    expect(ports).toEqual([
      { port: 3000, allAddresses: false, inode: 4 },
      { port: 5001, allAddresses: true, inode: 0 },
      { port: 8000, allAddresses: true, inode: 2 },
    ])
    // A sandbox whose /proc cannot be read lists nothing rather than failing.
    expect(await listeningPorts({ read: () => Promise.reject(new Error('gone')) })).toEqual([])
  })

  it('makes a port’s URL from the runtime’s, as E2B addresses them', () => {
    expect(portUrl('http://49983-abc123.localhost:8787', 8000)).toBe('http://8000-abc123.localhost:8787/')
    expect(portUrl('http://s3.49983-abc123.localhost:8787', 3000, 'app?x=1')).toBe(
      'http://3000-abc123.localhost:8787/app?x=1',
    )
    expect(portUrl('https://49983-isb4.e2b.app', 5173, '/docs')).toBe('https://5173-isb4.e2b.app/docs')
    expect(portUrl('http://49983-abc.localhost:8787', 80, '//evil.example/x')).toBe(
      'http://80-abc.localhost:8787/evil.example/x',
    )
    expect(portUrl('http://127.0.0.1:49983', 8000)).toBeUndefined()
  })

  it('sends links to localhost that a program printed to the sandbox’s port, and others where they point', () => {
    const runtime = 'http://49983-abc.localhost:8787'
    expect(sandboxLink(runtime, 'http://0.0.0.0:8000/')).toBe('http://8000-abc.localhost:8787/')
    expect(sandboxLink(runtime, 'http://localhost:5173/app?x=1#top')).toBe(
      'http://5173-abc.localhost:8787/app?x=1#top',
    )
    expect(sandboxLink(runtime, 'http://127.0.0.1/')).toBe('http://80-abc.localhost:8787/')
    expect(sandboxLink(runtime, 'https://example.com/docs')).toBe('https://example.com/docs')
    expect(sandboxLink('http://127.0.0.1:9000', 'http://localhost:8000/')).toBe('http://localhost:8000/')
  })
})
