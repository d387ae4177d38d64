/** Default cap on captured command output (head + tail). */
export const DEFAULT_MAX_OUTPUT_BYTES = 1024 * 1024;

/**
 * Captures a byte stream in bounded memory: the first half of the cap (head) and the last half
 * (tail, a ring buffer) are kept, everything in between is counted and dropped. A command that
 * prints 200 MB costs at most `maxBytes` of memory. Backend-neutral (Docker and bwrap share it).
 */
export class OutputCap {
  private readonly head: Buffer;
  private headLength = 0;
  private readonly tail: Buffer;
  /** Next write position in the tail ring. */
  private tailPos = 0;
  private tailLength = 0;
  private total = 0;

  constructor(readonly maxBytes: number = DEFAULT_MAX_OUTPUT_BYTES) {
    if (!Number.isInteger(maxBytes) || maxBytes < 0) throw new RangeError(`maxBytes must be a non-negative integer, got ${maxBytes}`);
    const headCap = Math.ceil(maxBytes / 2);
    this.head = Buffer.alloc(headCap);
    this.tail = Buffer.alloc(maxBytes - headCap);
  }

  push(chunk: Uint8Array): void {
    this.total += chunk.length;
    let offset = 0;
    if (this.headLength < this.head.length) {
      const take = Math.min(chunk.length, this.head.length - this.headLength);
      this.head.set(chunk.subarray(0, take), this.headLength);
      this.headLength += take;
      offset = take;
    }
    const ring = this.tail.length;
    if (offset >= chunk.length || ring === 0) return;
    // Only the last `ring` bytes of the chunk can survive in the tail.
    let rest = chunk.subarray(Math.max(offset, chunk.length - ring));
    while (rest.length > 0) {
      const take = Math.min(rest.length, ring - this.tailPos);
      this.tail.set(rest.subarray(0, take), this.tailPos);
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
    const tail =
      this.tailLength < this.tail.length
        ? this.tail.subarray(0, this.tailLength)
        : Buffer.concat([this.tail.subarray(this.tailPos), this.tail.subarray(0, this.tailPos)]);
    const head = this.head.subarray(0, this.headLength);
    const dropped = this.droppedBytes;
    // Decoding replaces invalid UTF-8 with U+FFFD; a character cut by the cap decodes the same way.
    if (dropped === 0) return Buffer.concat([head, tail]).toString('utf8');
    return `${head.toString('utf8')}\n[... ${dropped} bytes of output dropped ...]\n${tail.toString('utf8')}`;
  }
}
