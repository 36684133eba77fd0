// WAV container: the RIFF / RF64 header writer and reader, for 16-bit and 24-bit PCM. The PCM
// data with its seeded TPDF dither is made inside the engine (dsp/assembly/pcm16.ts and pcm24.ts,
// Engine.renderPcm16 / renderPcm24). No I/O here: the
// export worker, the CLI and the tests all go through these functions, so every path produces the
// same bytes.
//
// Header layouts:
// - RIFF/WAVE (Microsoft "Multimedia Programming Interface and Data Specifications 1.0"):
//   'RIFF' size 'WAVE' | 'fmt ' 16 PCM | 'data' size ... = 44 bytes, for files whose RIFF size
//   (file length - 8) fits in 32 bits.
// - RF64 (EBU Tech 3306, 2009): 'RF64' 0xFFFFFFFF 'WAVE' | 'ds64' 28: riffSize u64, dataSize u64,
//   sampleCount u64, tableLength u32 = 0 | 'fmt ' 16 PCM | 'data' 0xFFFFFFFF ... = 80 bytes.
//   The 32-bit size fields hold 0xFFFFFFFF ("-1": read the ds64 value instead).
// 24-bit files keep the plain PCM format tag (1) with 24 bits per sample and a 6-byte block, the
// same 44/80-byte layouts: every reader we know of (ffmpeg, SoX, libsndfile, Windows, macOS) takes
// it, where WAVE_FORMAT_EXTENSIBLE would add 24 bytes and a second layout to every path.
// The length is known before the first byte is written, so the final header comes first and a
// stream never seeks back.

export const WAV_SAMPLE_RATE = 48000;
export const WAV_CHANNELS = 2;
export const WAV_BITS = 16;
export const WAV_BLOCK_ALIGN = (WAV_CHANNELS * WAV_BITS) / 8; // 4 bytes per stereo frame
export type WavBits = 16 | 24;

/** Bytes per stereo frame at `bits` (4 for 16-bit, 6 for 24-bit). */
export function blockAlign(bits: WavBits = WAV_BITS): number {
  return (WAV_CHANNELS * bits) / 8;
}
export const RIFF_HEADER_BYTES = 44;
export const RF64_HEADER_BYTES = 80;
const U32_MAX = 0xffffffff;

/** Full scale of the engine's PCM24 (dsp/assembly/pcm24.ts), symmetric likewise. */
export const PCM24_SCALE = 8388607;

/** Full scale of the engine's PCM16 (dsp/assembly/pcm16.ts): +1.0 maps to +32767 and -1.0 to
 *  -32767 (symmetric; -32768 only through dither). */
export const PCM16_SCALE = 32767;

/** True when `dataBytes` of PCM need an RF64 header (the RIFF size would not fit in 32 bits). */
export function needsRf64(dataBytes: number): boolean {
  return dataBytes + RIFF_HEADER_BYTES - 8 > U32_MAX;
}

export function headerBytesFor(dataBytes: number): number {
  return needsRf64(dataBytes) ? RF64_HEADER_BYTES : RIFF_HEADER_BYTES;
}

export interface WavLayout {
  frames: number;
  dataBytes: number;
  headerBytes: number;
  totalBytes: number;
  rf64: boolean;
}

/** Sizes of a 48 kHz stereo PCM file of `bits` holding `frames` frames. */
export function wavLayout(frames: number, bits: WavBits = WAV_BITS): WavLayout {
  if (!Number.isSafeInteger(frames) || frames < 0) throw new RangeError(`Invalid frame count: ${frames}`);
  const dataBytes = frames * blockAlign(bits);
  const headerBytes = headerBytesFor(dataBytes);
  return { frames, dataBytes, headerBytes, totalBytes: headerBytes + dataBytes, rf64: headerBytes === RF64_HEADER_BYTES };
}

function ascii(view: DataView, offset: number, text: string): void {
  for (let i = 0; i < text.length; i++) view.setUint8(offset + i, text.charCodeAt(i));
}

function fmtChunk(view: DataView, offset: number, sampleRate: number, bits: WavBits): void {
  const align = blockAlign(bits);
  ascii(view, offset, "fmt ");
  view.setUint32(offset + 4, 16, true);
  view.setUint16(offset + 8, 1, true); // WAVE_FORMAT_PCM
  view.setUint16(offset + 10, WAV_CHANNELS, true);
  view.setUint32(offset + 12, sampleRate, true);
  view.setUint32(offset + 16, sampleRate * align, true); // byte rate
  view.setUint16(offset + 20, align, true);
  view.setUint16(offset + 22, bits, true);
}

/** The final header for `dataBytes` bytes of 16-bit (or 24-bit) stereo PCM (RIFF up to 4 GiB,
 *  RF64 above). */
export function wavHeader(dataBytes: number, sampleRate = WAV_SAMPLE_RATE, bits: WavBits = WAV_BITS): Uint8Array {
  const align = blockAlign(bits);
  if (!Number.isSafeInteger(dataBytes) || dataBytes < 0 || dataBytes % align !== 0) {
    throw new RangeError(`Invalid PCM data length: ${dataBytes}`);
  }
  const rf64 = needsRf64(dataBytes);
  const out = new Uint8Array(rf64 ? RF64_HEADER_BYTES : RIFF_HEADER_BYTES);
  const view = new DataView(out.buffer);
  if (!rf64) {
    ascii(view, 0, "RIFF");
    view.setUint32(4, RIFF_HEADER_BYTES - 8 + dataBytes, true);
    ascii(view, 8, "WAVE");
    fmtChunk(view, 12, sampleRate, bits);
    ascii(view, 36, "data");
    view.setUint32(40, dataBytes, true);
    return out;
  }
  ascii(view, 0, "RF64");
  view.setUint32(4, U32_MAX, true);
  ascii(view, 8, "WAVE");
  ascii(view, 12, "ds64");
  view.setUint32(16, 28, true);
  view.setBigUint64(20, BigInt(RF64_HEADER_BYTES - 8 + dataBytes), true); // riffSize
  view.setBigUint64(28, BigInt(dataBytes), true); // dataSize
  view.setBigUint64(36, BigInt(dataBytes / align), true); // sampleCount (frames)
  view.setUint32(44, 0, true); // tableLength: no other oversized chunks
  fmtChunk(view, 48, sampleRate, bits);
  ascii(view, 72, "data");
  view.setUint32(76, U32_MAX, true);
  return out;
}

export interface WavInfo {
  container: "RIFF" | "RF64";
  /** File length - 8 as the header states it (from ds64 for RF64). */
  riffSize: number;
  formatTag: number;
  channels: number;
  sampleRate: number;
  byteRate: number;
  blockAlign: number;
  bitsPerSample: number;
  /** Byte offset of the first PCM byte. */
  dataOffset: number;
  dataBytes: number;
  frames: number;
  /** ds64 sample count (RF64 only). */
  sampleCount?: number;
}

function tag(view: DataView, offset: number): string {
  return String.fromCharCode(view.getUint8(offset), view.getUint8(offset + 1), view.getUint8(offset + 2), view.getUint8(offset + 3));
}

/** Parses the header of a RIFF or RF64 WAVE file from its first bytes (at least up to the 'data'
 *  chunk header). Throws with a reason when the bytes are not a PCM WAVE header. */
export function parseWavHeader(bytes: Uint8Array): WavInfo {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.byteLength < 12) throw new Error("Too short for a WAVE header");
  const container = tag(view, 0);
  if (container !== "RIFF" && container !== "RF64") throw new Error(`Not a RIFF/RF64 file: '${container}'`);
  if (tag(view, 8) !== "WAVE") throw new Error("Not a WAVE file");
  let riffSize = view.getUint32(4, true);
  let ds64: { riffSize: number; dataSize: number; sampleCount: number } | null = null;
  let fmt: Omit<WavInfo, "container" | "riffSize" | "dataOffset" | "dataBytes" | "frames"> | null = null;
  let offset = 12;
  while (offset + 8 <= bytes.byteLength) {
    const id = tag(view, offset);
    const size = view.getUint32(offset + 4, true);
    const body = offset + 8;
    if (id === "ds64") {
      if (container !== "RF64") throw new Error("ds64 chunk in a RIFF file");
      ds64 = {
        riffSize: Number(view.getBigUint64(body, true)),
        dataSize: Number(view.getBigUint64(body + 8, true)),
        sampleCount: Number(view.getBigUint64(body + 16, true)),
      };
    } else if (id === "fmt ") {
      fmt = {
        formatTag: view.getUint16(body, true),
        channels: view.getUint16(body + 2, true),
        sampleRate: view.getUint32(body + 4, true),
        byteRate: view.getUint32(body + 8, true),
        blockAlign: view.getUint16(body + 12, true),
        bitsPerSample: view.getUint16(body + 14, true),
      };
    } else if (id === "data") {
      if (!fmt) throw new Error("data chunk before fmt chunk");
      let dataBytes = size;
      if (container === "RF64") {
        if (!ds64) throw new Error("RF64 file without a ds64 chunk");
        if (riffSize !== U32_MAX || size !== U32_MAX) throw new Error("RF64 32-bit size fields must be 0xFFFFFFFF");
        riffSize = ds64.riffSize;
        dataBytes = ds64.dataSize;
      }
      return {
        container,
        riffSize,
        ...fmt,
        dataOffset: body,
        dataBytes,
        frames: Math.floor(dataBytes / fmt.blockAlign),
        ...(ds64 ? { sampleCount: ds64.sampleCount } : {}),
      };
    }
    offset = body + size + (size & 1); // chunks are word-aligned
  }
  throw new Error("No data chunk in the header bytes");
}
