import { describe, expect, it } from 'vitest';
import { FrameDemuxer } from '../../../src/sandbox/docker/frame-demuxer.js';

function frame(stream: number, payload: string): Buffer {
  const header = Buffer.alloc(8);
  header[0] = stream;
  header.writeUInt32BE(Buffer.byteLength(payload), 4);
  return Buffer.concat([header, Buffer.from(payload)]);
}

const wire = Buffer.concat([frame(1, 'out one\n'), frame(2, 'err\n'), frame(1, ''), frame(1, 'out two\n')]);

describe('FrameDemuxer', () => {
  it.each([1, 3, 7, 8, 9, 13, wire.length])('reassembles frames fed in chunks of %i bytes', (size) => {
    const seen: Array<[number, string]> = [];
    const demuxer = new FrameDemuxer((bytes, stream) => seen.push([stream, bytes.toString()]));
    for (let offset = 0; offset < wire.length; offset += size) demuxer.push(wire.subarray(offset, offset + size));
    const byStream = (n: number): string => seen.filter(([stream]) => stream === n).map(([, text]) => text).join('');
    expect(byStream(1)).toBe('out one\nout two\n');
    expect(byStream(2)).toBe('err\n');
    expect(seen.map(([, text]) => text).join('')).toBe('out one\nerr\nout two\n');
  });
});
