/** Default cap on captured command output (head + tail). */
export const DEFAULT_MAX_OUTPUT_BYTES = 1024 * 1024;

/**
 * Captures a byte stream in bounded memory: the first half of the cap (head) and the last half
 * (tail, a ring buffer) are kept, everything in between is counted and dropped. A command that
 * prints 200 MB costs at most `maxBytes` of memory. Backend-neutral (Docker and bwrap share it).
 */
export class OutputCap {
  /** The head's bytes as pushed (copies), at most `headCap` in all. */
  private readonly headChunks: Buffer[] = [];
  private readonly headCap: number;
  private headLength = 0;
  /** The tail ring, allocated once output outgrows the head: most commands print a few KiB. */
  private tail: Buffer | undefined;
  /** Next write position in the tail ring. */
  private tailPos = 0;
  private tailLength = 0;
  private total = 0;

  constructor(readonly maxBytes: number = DEFAULT_MAX_OUTPUT_BYTES) {
    if (!Number.isInteger(maxBytes) || maxBytes < 0) throw new RangeError(`maxBytes must be a non-negative integer, got ${maxBytes}`);
    this.headCap = Math.ceil(maxBytes / 2);
  }

  /** Bytes of memory holding output now: what was captured, never the whole cap up front. */
  get retainedBytes(): number {
    return this.headLength + (this.tail?.length ?? 0);
  }

  push(chunk: Uint8Array): void {
    this.total += chunk.length;
    let offset = 0;
    if (this.headLength < this.headCap) {
      const take = Math.min(chunk.length, this.headCap - this.headLength);
      this.headChunks.push(Buffer.from(chunk.subarray(0, take)));
      this.headLength += take;
      offset = take;
    }
    const ring = this.maxBytes - this.headCap;
    if (offset >= chunk.length || ring === 0) return;
    // Unsafe (not zero-filled) is fine: only bytes written below are ever read.
    const tail = (this.tail ??= Buffer.allocUnsafe(ring));
    // Only the last `ring` bytes of the chunk can survive in the tail.
    let rest = chunk.subarray(Math.max(offset, chunk.length - ring));
    while (rest.length > 0) {
      const take = Math.min(rest.length, ring - this.tailPos);
      tail.set(rest.subarray(0, take), this.tailPos);
      this.tailPos = (this.tailPos + take) % ring;
      this.tailLength = Math.min(ring, this.tailLength + take);
      rest = rest.subarray(take);
    }
  }

  /** Bytes seen but not kept. */
  get droppedBytes(): number {
    return this.total - this.headLength - this.tailLength;
  }

  get totalBytes(): number {
    return this.total;
  }

  /** Kept bytes in order, with a note where the middle was dropped. */
  text(): string {
    // Until the ring first fills, tailPos === tailLength and the bytes sit in order from 0.
    const ring = this.tail ?? Buffer.alloc(0);
    const tail = this.tailLength < ring.length ? ring.subarray(0, this.tailLength) : Buffer.concat([ring.subarray(this.tailPos), ring.subarray(0, this.tailPos)]);
    const head = Buffer.concat(this.headChunks);
    const dropped = this.droppedBytes;
    // Decoding replaces invalid UTF-8 with U+FFFD; a character cut by the cap decodes the same way.
    if (dropped === 0) return Buffer.concat([head, tail]).toString('utf8');
    return `${head.toString('utf8')}\n[... ${dropped} bytes of output dropped ...]\n${tail.toString('utf8')}`;
  }
}
