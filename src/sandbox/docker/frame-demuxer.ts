const HEADER_BYTES = 8;

/**
 * Parses Docker's multiplexed attach stream (Tty false): frames of an 8-byte header
 * `[stream, 0, 0, 0, size (uint32 BE)]` followed by `size` payload bytes. Chunks may split headers
 * and payloads anywhere; payloads of stdout and stderr are handed on in arrival order.
 */
export class FrameDemuxer {
  private header = Buffer.alloc(HEADER_BYTES);
  private headerFill = 0;
  /** Payload bytes still expected for the current frame. */
  private remaining = 0;
  /** Stream number (1 stdout, 2 stderr) of the current frame. */
  private stream = 0;

  constructor(private readonly onPayload: (bytes: Buffer, stream: number) => void) {}

  push(chunk: Buffer): void {
    let offset = 0;
    while (offset < chunk.length) {
      if (this.remaining === 0) {
        const take = Math.min(HEADER_BYTES - this.headerFill, chunk.length - offset);
        chunk.copy(this.header, this.headerFill, offset, offset + take);
        this.headerFill += take;
        offset += take;
        if (this.headerFill < HEADER_BYTES) return;
        this.headerFill = 0;
        this.stream = this.header[0] ?? 0;
        this.remaining = this.header.readUInt32BE(4);
        continue;
      }
      const take = Math.min(this.remaining, chunk.length - offset);
      this.onPayload(chunk.subarray(offset, offset + take), this.stream);
      this.remaining -= take;
      offset += take;
    }
  }
}
