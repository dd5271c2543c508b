// What this project's runtime adds to envd's wire, and the IDE asks for: the names both sides
// use, in one place. A client that sends none of them gets exactly envd's behaviour.

/**
 * The port envd listens on inside an E2B sandbox: `49983-{sandboxId}.{domain}` reaches the
 * runtime, and `{port}-{sandboxId}.{domain}` any other port.
 */
export const envdPort = 49983

/**
 * Replay (Start and Connect): `X-Replay-From: <offset>` asks for the process's output from that
 * absolute byte offset on; the answer's `X-Replay-Start` says where what it sends begins (later
 * than asked when the log no longer holds it), and `X-Replay-End` where the replayed past ends
 * and live output begins (a terminal answers no question asked before it: it was answered then).
 */
export const replayFromHeader = 'X-Replay-From'
export const replayStartHeader = 'X-Replay-Start'
export const replayEndHeader = 'X-Replay-End'

/**
 * Acknowledged output (Start and Connect): `X-Output-Window: <bytes>` asks for flow control; the
 * answer grants a window (the same header) and names the stream (`X-Output-Stream`), whose
 * handled output the client acknowledges with `POST /output-ack?stream=<id>`, the offset (as for
 * X-Replay-From) in the body. After a Ctrl-C that flushes output, answers say where:
 * `X-Output-Flush: <offset>`.
 */
export const outputWindowHeader = 'X-Output-Window'
/** The windows a runtime grants: what is asked for, clamped to these. */
export const minOutputWindowBytes = 64 * 1024
export const maxOutputWindowBytes = 16 * 1024 * 1024
export const outputStreamHeader = 'X-Output-Stream'
export const outputFlushHeader = 'X-Output-Flush'
export const outputAckPath = '/output-ack'

/**
 * Attached streams (List): the answer's `X-Attached-Pids` names, comma-separated, the processes
 * some client's Start or Connect stream reads now. A process it does not name has none (a
 * terminal no page shows any more); an answer without it (envd) says nothing either way.
 */
export const attachedPidsHeader = 'X-Attached-Pids'

/**
 * Saving a file (GET /files): `download=1` in the query makes the answer `Content-Disposition:
 * attachment` instead of envd's `inline`, so a browser sent to a signed /files URL saves the file
 * to disk as it streams in, whatever its type, instead of showing it.
 */
export const downloadParam = 'download'

/**
 * A full disk (POST /files answers envd's 507 with envd's words, "not enough disk space available"
 * or "not enough inodes available"): this runtime adds what is left, ` (N bytes free)` with N from
 * a statfs of the target's file system once the failed write is cleaned up, or ` (over the disk
 * quota)` for EDQUOT. A client matching envd's words still finds them at the start.
 */
export const noSpaceFree = (bytes: number) => ` (${Math.max(0, Math.floor(bytes))} bytes free)`
export const noSpaceQuota = ' (over the disk quota)'

/** What a 507's message says is left: free bytes, 'quota', or undefined (envd says nothing of it). */
export function noSpaceLeft(message: string): number | 'quota' | undefined {
  if (message.endsWith(noSpaceQuota)) return 'quota'
  const free = / \((\d+) bytes free\)$/.exec(message)?.[1]
  return free === undefined ? undefined : Number(free)
}
