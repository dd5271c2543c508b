import {
  type DescMessage,
  fromBinary,
  fromJsonString,
  type MessageShape,
  toBinary,
  toJsonString,
} from '@bufbuild/protobuf'
import { describe, expect, it } from 'vitest'
import * as fs from '../src/gen/filesystem_pb'
import * as proc from '../src/gen/process_pb'

/** A message and the exact JSON the real runtime sends or accepts for it (envd-api.md §4–§5). */
type Sample = [DescMessage, string]

const entry =
  '{"name":"src","type":"FILE_TYPE_DIRECTORY","path":"/home/user/src","size":"4096","mode":493,' +
  '"permissions":"drwxr-xr-x","owner":"user","group":"user","modifiedTime":"2026-08-01T10:00:00.123456789Z"}'
const link =
  '{"name":"l","type":"FILE_TYPE_FILE","path":"/home/user/l","size":"9","mode":420,' +
  '"permissions":"Lrwxrwxrwx","owner":"root","group":"root","symlinkTarget":"/etc/hosts","metadata":{"k":"v"}}'

const filesystemSamples: Sample[] = [
  [fs.EntryInfoSchema, entry],
  [fs.EntryInfoSchema, link],
  [fs.StatRequestSchema, '{"path":"/home/user/a.txt"}'],
  [fs.StatResponseSchema, `{"entry":${link}}`],
  [fs.MakeDirRequestSchema, '{"path":"a/b"}'],
  [fs.MakeDirResponseSchema, `{"entry":${entry}}`],
  [fs.MoveRequestSchema, '{"source":"a","destination":"b/c"}'],
  [fs.MoveResponseSchema, `{"entry":${entry}}`],
  [fs.ListDirRequestSchema, '{"path":"/home/user","depth":2}'],
  [fs.ListDirResponseSchema, `{"entries":[${entry},${link}]}`],
  [fs.RemoveRequestSchema, '{"path":"/home/user/old"}'],
  [fs.RemoveResponseSchema, '{}'],
  [fs.FilesystemEventSchema, `{"name":"sub/new.txt","type":"EVENT_TYPE_CREATE","entry":${entry}}`],
  [
    fs.WatchDirRequestSchema,
    '{"path":"/home/user","recursive":true,"includeEntry":true,"allowNetworkMounts":true}',
  ],
  [fs.WatchDirResponseSchema, '{"start":{}}'],
  [fs.WatchDirResponseSchema, '{"filesystem":{"name":"a.txt","type":"EVENT_TYPE_WRITE"}}'],
  [fs.WatchDirResponseSchema, '{"filesystem":{"name":".","type":"EVENT_TYPE_CHMOD"}}'],
  [fs.WatchDirResponseSchema, '{"keepalive":{}}'],
  [fs.CreateWatcherRequestSchema, '{"path":"/home/user","recursive":true}'],
  [fs.CreateWatcherResponseSchema, '{"watcherId":"wabcdefghij0123456789"}'],
  [fs.GetWatcherEventsRequestSchema, '{"watcherId":"wabcdefghij0123456789"}'],
  [
    fs.GetWatcherEventsResponseSchema,
    '{"events":[{"name":"x","type":"EVENT_TYPE_RENAME"},{"name":"y","type":"EVENT_TYPE_REMOVE"}]}',
  ],
  [fs.RemoveWatcherRequestSchema, '{"watcherId":"wabcdefghij0123456789"}'],
  [fs.RemoveWatcherResponseSchema, '{}'],
]

const processSamples: Sample[] = [
  [proc.PTYSchema, '{"size":{"cols":80,"rows":24}}'],
  [
    proc.ProcessConfigSchema,
    '{"cmd":"/bin/bash","args":["-i","-l"],"envs":{"TERM":"xterm-256color"},"cwd":"/home/user"}',
  ],
  [proc.ListRequestSchema, '{}'],
  [proc.ProcessInfoSchema, '{"config":{"cmd":"sleep","args":["60"]},"pid":412,"tag":"term-1"}'],
  [proc.ListResponseSchema, '{"processes":[{"config":{"cmd":"bash"},"pid":7}]}'],
  [
    proc.StartRequestSchema,
    '{"process":{"cmd":"/bin/bash","args":["-i","-l"],"envs":{"TERM":"xterm-256color"},"cwd":"/home/user"},' +
      '"pty":{"size":{"cols":80,"rows":24}}}',
  ],
  [proc.StartRequestSchema, '{"process":{"cmd":"cat"},"tag":"t","stdin":false}'],
  [proc.UpdateRequestSchema, '{"process":{"pid":412},"pty":{"size":{"cols":120,"rows":40}}}'],
  [proc.UpdateResponseSchema, '{}'],
  [proc.ProcessEventSchema, '{"keepalive":{}}'],
  [proc.StartResponseSchema, '{"event":{"start":{"pid":412}}}'],
  [proc.StartResponseSchema, '{"event":{"data":{"pty":"G1szMm0K"}}}'],
  [proc.StartResponseSchema, '{"event":{"data":{"stdout":"aGVsbG8K"}}}'],
  [proc.StartResponseSchema, '{"event":{"data":{"stderr":"b29wcwo="}}}'],
  [proc.StartResponseSchema, '{"event":{"end":{"exited":true,"status":"exit status 0"}}}'],
  [
    proc.StartResponseSchema,
    '{"event":{"end":{"exitCode":1,"exited":true,"status":"exit status 1","error":"exit status 1"}}}',
  ],
  [proc.StartResponseSchema, '{"event":{"keepalive":{}}}'],
  [
    proc.ConnectResponseSchema,
    '{"event":{"end":{"exitCode":-1,"status":"signal: killed","error":"signal: killed"}}}',
  ],
  [proc.SendInputRequestSchema, '{"process":{"pid":412},"input":{"pty":"bHMK"}}'],
  [proc.SendInputRequestSchema, '{"process":{"tag":"job"},"input":{"stdin":"eWVzCg=="}}'],
  [proc.SendInputResponseSchema, '{}'],
  [proc.ProcessInputSchema, '{"pty":"AwQ="}'],
  [proc.StreamInputRequestSchema, '{"start":{"process":{"pid":412}}}'],
  [proc.StreamInputRequestSchema, '{"data":{"input":{"pty":"YQ=="}}}'],
  [proc.StreamInputRequestSchema, '{"keepalive":{}}'],
  [proc.StreamInputResponseSchema, '{}'],
  [proc.SendSignalRequestSchema, '{"process":{"pid":412},"signal":"SIGNAL_SIGKILL"}'],
  [proc.SendSignalRequestSchema, '{"process":{"pid":412},"signal":"SIGNAL_SIGTERM"}'],
  [proc.SendSignalResponseSchema, '{}'],
  [proc.CloseStdinRequestSchema, '{"process":{"pid":412}}'],
  [proc.CloseStdinResponseSchema, '{}'],
  [proc.ConnectRequestSchema, '{"process":{"pid":412}}'],
  [proc.ProcessSelectorSchema, '{"tag":"term-1"}'],
]

function roundTrip(schema: DescMessage, json: string): string {
  return toJsonString(schema, fromJsonString(schema, json))
}

describe.each([
  ['filesystem', fs.file_filesystem.messages, filesystemSamples],
  ['process', proc.file_process.messages, processSamples],
] as const)('%s.proto', (_name, messages, samples) => {
  it.each(samples.map(([schema, json]) => [schema.typeName, json, schema] as const))(
    '%s keeps the wire JSON %s',
    (_typeName, json, schema) => {
      expect(roundTrip(schema, json)).toBe(json)
    },
  )

  it('has a sample for every message it declares', () => {
    const sampled = new Set(samples.map(([schema]) => schema.typeName))
    const missing = messages.map((m) => m.typeName).filter((name) => !sampled.has(name))
    expect(missing).toEqual([])
  })
})

describe('wire encodings the references pin down', () => {
  it('writes int64 as a string and leaves zero values out', () => {
    const info = fromJsonString(fs.EntryInfoSchema, '{"name":"empty","size":0,"mode":0}')
    expect(toJsonString(fs.EntryInfoSchema, info)).toBe('{"name":"empty"}')
    expect(toJsonString(fs.EntryInfoSchema, { ...info, size: 5_000_000_000n })).toContain(
      '"size":"5000000000"',
    )
  })

  it('accepts snake_case names, numeric int64 and numeric enums on input', () => {
    const end = fromJsonString(proc.ProcessEventSchema, '{"end":{"exit_code":2,"exited":true}}')
    expect(toJsonString(proc.ProcessEventSchema, end)).toBe('{"end":{"exitCode":2,"exited":true}}')
    const e = fromJsonString(fs.EntryInfoSchema, '{"size":4096,"type":2,"symlink_target":"/x"}')
    expect(toJsonString(fs.EntryInfoSchema, e)).toBe(
      '{"type":"FILE_TYPE_DIRECTORY","size":"4096","symlinkTarget":"/x"}',
    )
  })

  it('keeps field 2 for StreamInputRequest.DataEvent.input in binary', () => {
    const msg = fromJsonString(proc.StreamInputRequestSchema, '{"data":{"input":{"pty":"YQ=="}}}')
    // data (2, LEN 5) > input (2, LEN 3) > pty (2, LEN 1) 'a'
    expect([...toBinary(proc.StreamInputRequestSchema, msg)]).toEqual([0x12, 5, 0x12, 3, 0x12, 1, 0x61])
  })

  it('encodes exit codes as sint32 and signals with their POSIX numbers', () => {
    const killed = fromJsonString(proc.ProcessEventSchema, '{"end":{"exitCode":-1}}')
    // end (3, LEN 2) > exit_code (1, zigzag(-1) = 1)
    expect([...toBinary(proc.ProcessEventSchema, killed)]).toEqual([0x1a, 2, 0x08, 0x01])
    const kill = fromJsonString(proc.SendSignalRequestSchema, '{"signal":"SIGNAL_SIGKILL"}')
    expect([...toBinary(proc.SendSignalRequestSchema, kill)]).toEqual([0x10, 9])
    expect(proc.Signal.SIGTERM).toBe(15)
  })

  it('round-trips binary for a full process event', () => {
    const ev = fromJsonString(proc.StartResponseSchema, '{"event":{"data":{"pty":"G1szMm0K"}}}')
    const back: MessageShape<typeof proc.StartResponseSchema> = fromBinary(
      proc.StartResponseSchema,
      toBinary(proc.StartResponseSchema, ev),
    )
    expect(toJsonString(proc.StartResponseSchema, back)).toBe('{"event":{"data":{"pty":"G1szMm0K"}}}')
  })
})

describe('services', () => {
  const kinds = (service: typeof fs.Filesystem | typeof proc.Process) =>
    Object.fromEntries(service.methods.map((m) => [`/${service.typeName}/${m.name}`, m.methodKind]))

  it('filesystem.Filesystem serves every RPC of the reference at its path', () => {
    expect(kinds(fs.Filesystem)).toEqual({
      '/filesystem.Filesystem/Stat': 'unary',
      '/filesystem.Filesystem/MakeDir': 'unary',
      '/filesystem.Filesystem/Move': 'unary',
      '/filesystem.Filesystem/ListDir': 'unary',
      '/filesystem.Filesystem/Remove': 'unary',
      '/filesystem.Filesystem/WatchDir': 'server_streaming',
      '/filesystem.Filesystem/CreateWatcher': 'unary',
      '/filesystem.Filesystem/GetWatcherEvents': 'unary',
      '/filesystem.Filesystem/RemoveWatcher': 'unary',
    })
  })

  it('process.Process serves every RPC of the reference at its path', () => {
    expect(kinds(proc.Process)).toEqual({
      '/process.Process/List': 'unary',
      '/process.Process/Connect': 'server_streaming',
      '/process.Process/Start': 'server_streaming',
      '/process.Process/Update': 'unary',
      '/process.Process/StreamInput': 'client_streaming',
      '/process.Process/SendInput': 'unary',
      '/process.Process/SendSignal': 'unary',
      '/process.Process/CloseStdin': 'unary',
    })
  })
})
