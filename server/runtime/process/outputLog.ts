/** Which output a chunk came from, as ProcessEvent.DataEvent names it. */
export type OutputKind = 'pty' | 'stdout' | 'stderr'

/** A chunk of process output at its absolute byte offset since the process started. */
export interface OutputChunk {
  offset: number
  kind: OutputKind
  data: Uint8Array
}

/**
 * The most recent output of one process, bounded in bytes, addressed by absolute offsets so a
 * client that reconnects can ask for exactly what it has not seen yet.
 */
export class OutputLog {
  private readonly chunks: OutputChunk[] = []
  private bytes = 0
  /** Offset just past the newest byte ever appended. */
  end = 0

  constructor(private readonly capacity: number) {}

  /** Appends a chunk and returns it with its offset; evicts the oldest chunks beyond capacity. */
  append(kind: OutputKind, data: Uint8Array): OutputChunk {
    const chunk = { offset: this.end, kind, data }
    this.end += data.length
    this.chunks.push(chunk)
    this.bytes += data.length
    while (this.bytes > this.capacity && this.chunks.length > 1) {
      this.bytes -= (this.chunks.shift() as OutputChunk).data.length
    }
    return chunk
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
}
