import { FrameTooLargeError, LineDecoder, encodeFrame } from '../../src/rpc/framing';

interface Decoded {
  frames: string[];
  oversize: number[];
  lost: number[];
}

function decoderFor(options: { maxFrameBytes?: number; maxDiscardBytes?: number } = {}): {
  decoder: LineDecoder;
  out: Decoded;
} {
  const out: Decoded = { frames: [], oversize: [], lost: [] };
  const decoder = new LineDecoder({
    ...options,
    onFrame: (frame) => out.frames.push(frame.toString('utf8')),
    onOversizeFrame: (bytes) => out.oversize.push(bytes),
    onLost: (bytes) => out.lost.push(bytes),
  });
  return { decoder, out };
}

const request = '{"id":1,"method":"query","params":{"path":"echo","input":{"text":"héllo ✓"}}}';

describe('LineDecoder', () => {
  it('yields every frame of a chunk that holds many', () => {
    const { decoder, out } = decoderFor();
    decoder.push(Buffer.from('{"a":1}\n{"b":2}\n{"c":3}\n'));
    expect(out.frames).toEqual(['{"a":1}', '{"b":2}', '{"c":3}']);
  });

  it('yields the same frames whatever byte boundary the stream is split at', () => {
    const bytes = Buffer.from(`${request}\n${request}\n`);
    for (let split = 1; split < bytes.length; split++) {
      const { decoder, out } = decoderFor();
      decoder.push(bytes.subarray(0, split));
      decoder.push(bytes.subarray(split));
      expect(out.frames).toEqual([request, request]);
    }
  });

  it('reassembles a frame that arrives one byte at a time, multi-byte characters included', () => {
    const { decoder, out } = decoderFor();
    for (const byte of Buffer.from(`${request}\n`)) decoder.push(Buffer.from([byte]));
    expect(out.frames).toEqual([request]);
  });

  it('holds back a frame until its newline arrives', () => {
    const { decoder, out } = decoderFor();
    decoder.push(Buffer.from('{"a":'));
    expect(out.frames).toEqual([]);
    decoder.push(Buffer.from('1}\n'));
    expect(out.frames).toEqual(['{"a":1}']);
  });

  it('accepts a frame of exactly the limit and reports one a byte longer', () => {
    const { decoder, out } = decoderFor({ maxFrameBytes: 10 });
    decoder.push(Buffer.from('0123456789\n01234567890\n'));
    expect(out.frames).toEqual(['0123456789']);
    expect(out.oversize).toEqual([11]);
  });

  it('skips an over-size frame spread over chunks and resumes at the frame after it', () => {
    const { decoder, out } = decoderFor({ maxFrameBytes: 16 });
    decoder.push(Buffer.from('{"before":1}\n' + 'x'.repeat(20)));
    decoder.push(Buffer.from('y'.repeat(5)));
    decoder.push(Buffer.from('z\n{"after":2}\n'));
    expect(out.frames).toEqual(['{"before":1}', '{"after":2}']);
    expect(out.oversize).toEqual([26]);
    expect(out.lost).toEqual([]);
  });

  it('gives up on a frame that runs past the discard budget without a newline', () => {
    const { decoder, out } = decoderFor({ maxFrameBytes: 16, maxDiscardBytes: 8 });
    decoder.push(Buffer.from('x'.repeat(20)));
    expect(out.lost).toEqual([]);
    decoder.push(Buffer.from('x'.repeat(5)));
    expect(out.lost).toEqual([25]);
    decoder.push(Buffer.from('\n{"late":1}\n'));
    expect(out.frames).toEqual([]);
    expect(out.oversize).toEqual([]);
  });

  it('passes empty frames on, leaving blank lines to the caller', () => {
    const { decoder, out } = decoderFor();
    decoder.push(Buffer.from('\n\n{"a":1}\n'));
    expect(out.frames).toEqual(['', '', '{"a":1}']);
  });
});

describe('encodeFrame', () => {
  it('writes the JSON text followed by one newline', () => {
    expect(encodeFrame({ id: 1, result: { type: 'data', data: 'é' } }).toString('utf8')).toBe(
      '{"id":1,"result":{"type":"data","data":"é"}}\n',
    );
  });

  it('counts the limit in UTF-8 bytes and refuses a message over it instead of truncating', () => {
    const json = JSON.stringify({ t: 'é'.repeat(10) }); // 10 characters of 2 bytes each
    const bytes = Buffer.byteLength(json);
    expect(encodeFrame({ t: 'é'.repeat(10) }, bytes).length).toBe(bytes + 1);
    expect(() => encodeFrame({ t: 'é'.repeat(10) }, bytes - 1)).toThrow(FrameTooLargeError);
    expect(() => encodeFrame({ t: 'é'.repeat(10) }, bytes - 1)).toThrow(
      `${bytes} bytes exceeds the ${bytes - 1}-byte`,
    );
  });
});
