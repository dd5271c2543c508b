/** Which output a chunk came from, as ProcessEvent.DataEvent names it. */
export type OutputKind = 'pty' | 'stdout' | 'stderr'

/** A chunk of process output at its absolute byte offset since the process started. */
export interface OutputChunk {
  offset: number
  kind: OutputKind
  data: Uint8Array
}

/**
 * Output shorter than this is copied into the log's blocks. Kept as it came, each would hold a
 * buffer of its own (a keystroke's echo: a byte, in some 400 bytes of objects and backing store)
 * or a share of Node's 8 KiB pool (what Buffer.concat gives below 4 KiB).
 */
const copyBelowBytes = 4 * 1024
/** The blocks small output is copied into; also the largest chunk that copying makes (envd's PTY chunk). */
export const blockBytes = 16 * 1024
/** What one chunk costs beyond its bytes (its objects), counted against the capacity. */
export const chunkOverheadBytes = 128

/**
 * The most recent output of one process, bounded in memory, addressed by absolute offsets so a
 * client that reconnects can ask for exactly what it has not seen yet. A terminal typed in a key
 * at a time appends a byte or two at a time all day: those are copied into shared blocks and
 * runs of one kind kept as one chunk, so the log costs what its bytes do, not ~400 bytes a
 * keystroke (issue 44: a runtime grew by the terminal's echoes). Larger output is kept as it came.
 */
export class OutputLog {
  private readonly chunks: OutputChunk[] = []
  /** Bytes held plus each chunk's overhead: what the capacity bounds. */
  private cost = 0
  /** The block small output is copied into now, and how much of it is used. */
  private block: Uint8Array | undefined
  private blockUsed = 0
  /** Offset just past the newest byte ever appended. */
  end = 0

  constructor(private readonly capacity: number) {}

  /** Appends output; evicts the oldest chunks beyond capacity. */
  append(kind: OutputKind, data: Uint8Array): void {
    if (data.length >= copyBelowBytes) this.push(kind, data)
    else
      for (let at = 0; at < data.length; ) {
        if (!this.block || this.blockUsed === blockBytes) {
          this.block = new Uint8Array(blockBytes)
          this.blockUsed = 0
        }
        const part = data.subarray(at, at + blockBytes - this.blockUsed)
        this.block.set(part, this.blockUsed)
        this.extendOrPush(kind, this.blockUsed, part.length)
        this.blockUsed += part.length
        at += part.length
      }
    while (this.cost > this.capacity && this.chunks.length > 1) {
      this.cost -= (this.chunks.shift() as OutputChunk).data.length + chunkOverheadBytes
    }
  }

  /** Offset of the oldest byte still held. */
  get start(): number {
    return this.chunks[0]?.offset ?? this.end
  }

  /** The held output from `from` on (from `start` when `from` is older); the first chunk may be cut. */
  since(from: number): OutputChunk[] {
    const begin = Math.max(from, this.start)
    const out: OutputChunk[] = []
    for (const chunk of this.chunks) {
      const chunkEnd = chunk.offset + chunk.data.length
      if (chunkEnd <= begin) continue
      out.push(
        chunk.offset >= begin
          ? chunk
          : { offset: begin, kind: chunk.kind, data: chunk.data.subarray(begin - chunk.offset) },
      )
    }
    return out
  }

  private push(kind: OutputKind, data: Uint8Array): void {
    this.chunks.push({ offset: this.end, kind, data })
    this.end += data.length
    this.cost += data.length + chunkOverheadBytes
  }

  /**
   * `length` bytes just copied to the block at `at`: the newest chunk grows over them when it is
   * of the same kind and ends right there in the block; else they are a chunk of their own.
   * A grown chunk is a new object: one handed out by `since` never changes.
   */
  private extendOrPush(kind: OutputKind, at: number, length: number): void {
    const block = this.block as Uint8Array
    const last = this.chunks.at(-1)
    const data = last?.data
    // A block is a Uint8Array of its own, so offsets in its buffer are offsets in it.
    if (last?.kind === kind && data?.buffer === block.buffer && data.byteOffset + data.length === at) {
      this.chunks[this.chunks.length - 1] = {
        offset: last.offset,
        kind,
        data: block.subarray(data.byteOffset, at + length),
      }
      this.end += length
      this.cost += length
      return
    }
    this.push(kind, block.subarray(at, at + length))
  }
}
