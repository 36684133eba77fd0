// Reads a RIFF/WAVE file's samples (PCM 8, 16, 24 or 32 bit, IEEE float 32 or 64, and the
// extensible header that wraps them): what SBaGen's -m takes beside OGG, MP3 and FLAC. The
// compressed formats go through their WebAssembly decoders (./decode.ts).

export interface DecodedAudio {
  sampleRate: number;
  channels: Float32Array[];
}

const PCM = 1;
const FLOAT = 3;
const EXTENSIBLE = 0xfffe;

export function isWav(b: Uint8Array): boolean {
  return b.length >= 12 && ascii(b, 0, 4) === "RIFF" && ascii(b, 8, 4) === "WAVE";
}

function ascii(b: Uint8Array, at: number, n: number): string {
  return String.fromCharCode(...b.subarray(at, at + n));
}

/** The samples of a WAV file; throws a readable error for what it cannot read. */
export function readWav(b: Uint8Array): DecodedAudio {
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  let format = 0, channels = 0, rate = 0, bits = 0;
  let data: { at: number; size: number } | null = null;
  for (let at = 12; at + 8 <= b.length; ) {
    const id = ascii(b, at, 4);
    const size = view.getUint32(at + 4, true);
    const body = at + 8;
    if (id === "fmt " && size >= 16) {
      format = view.getUint16(body, true);
      channels = view.getUint16(body + 2, true);
      rate = view.getUint32(body + 4, true);
      bits = view.getUint16(body + 14, true);
      if (format === EXTENSIBLE && size >= 26) format = view.getUint16(body + 24, true);
    } else if (id === "data") {
      // A streamed file may say 0 or too much: take what is there.
      data = { at: body, size: Math.min(size || Infinity, b.length - body) };
      break;
    }
    at = body + size + (size & 1);
  }
  if (!data || channels < 1 || rate < 1) throw new Error("the WAV file has no readable audio");
  const width = bits / 8;
  const read = sampleReader(view, format, bits);
  if (!read) throw new Error(`the WAV file's ${bits}-bit ${format === FLOAT ? "float" : "format " + format} samples cannot be read`);
  const frames = Math.floor(data.size / (width * channels));
  const out = Array.from({ length: channels }, () => new Float32Array(frames));
  for (let f = 0, at = data.at; f < frames; f++) for (let c = 0; c < channels; c++, at += width) out[c][f] = read(at);
  return { sampleRate: rate, channels: out };
}

function sampleReader(v: DataView, format: number, bits: number): ((at: number) => number) | null {
  if (format === FLOAT && bits === 32) return (at) => v.getFloat32(at, true);
  if (format === FLOAT && bits === 64) return (at) => v.getFloat64(at, true);
  if (format !== PCM) return null;
  switch (bits) {
    case 8: return (at) => (v.getUint8(at) - 128) / 128;
    case 16: return (at) => v.getInt16(at, true) / 32768;
    case 24: return (at) => ((v.getUint8(at) | (v.getUint8(at + 1) << 8) | (v.getInt8(at + 2) << 16)) / 8388608);
    case 32: return (at) => v.getInt32(at, true) / 2147483648;
    default: return null;
  }
}
