// Variable-bitrate MP3 for the studio (and `npm run render -- --encoder wasm --mp3-vbr Q`): LAME
// from wasm-media-encoders, whose WebAssembly build takes LAME's VBR quality (V0-V9), where
// @mediabunny/mp3-encoder's build takes a constant bitrate only. That build writes bare MPEG
// frames with no Xing frame, so a player could not tell a VBR file's length or seek in it: the
// frames are cut apart here (Mp3FrameSplitter) and handed one by one to mediabunny's MP3 muxer
// (encoders.ts), which writes the Xing frame with the frame count, the byte count and the seek
// table, as it does for the constant-bitrate files.
//
// Where there is a Web Worker (the browser's export worker) LAME (mp3-vbr-lame.ts) runs in a
// worker of its own (mp3-vbr.worker.ts, started by mp3-vbr-port.ts), so a 2-core phone renders on
// one core and encodes on the other, as the FLAC and CBR encoders do; in Node it runs inline
// (mp3-vbr-inline.ts: the command line's default encoder for MP3 is ffmpeg in a process of its
// own; --encoder wasm is there for byte-identical files).

import type { VbrLame } from "./mp3-vbr-lame";

/** Samples per MPEG-1 Layer III frame. */
export const MP3_FRAME_SAMPLES = 1152;

/** LAME in a worker of its own where the platform has Web Workers (its WebAssembly fetched from
 *  the app's own origin, as the CSP's connect-src allows), else in this thread (Node: the
 *  package's inline copy, kept out of the browser's bundles by this dynamic import). */
export async function createVbrLame(quality: number): Promise<VbrLame> {
  if (typeof Worker === "undefined") {
    const { inlineVbrLame } = await import("./mp3-vbr-inline");
    return inlineVbrLame(quality);
  }
  const { workerVbrLame } = await import("./mp3-vbr-port");
  return workerVbrLame(quality);
}

const MPEG1_L3_KBPS = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const MPEG1_RATES = [44100, 48000, 32000];

/** The length in bytes of the MPEG-1 Layer III frame whose header starts at `at`, or null when
 *  there is no such header there. */
export function mp3FrameLength(bytes: Uint8Array, at: number): number | null {
  if (at + 4 > bytes.length) return null;
  const b1 = bytes[at + 1];
  const b2 = bytes[at + 2];
  // Sync (11 bits), MPEG-1 (11), Layer III (01).
  if (bytes[at] !== 0xff || (b1 & 0xfe) !== 0xfa) return null;
  const kbps = MPEG1_L3_KBPS[b2 >> 4];
  const rate = MPEG1_RATES[(b2 >> 2) & 3];
  if (!kbps || !rate) return null;
  return Math.floor((144000 * kbps) / rate) + ((b2 >> 1) & 1);
}

/** Cuts a stream of MP3 bytes into whole frames, keeping a partial frame for the next push. */
export class Mp3FrameSplitter {
  private pending = new Uint8Array(0);

  push(bytes: Uint8Array): Uint8Array[] {
    const data = this.pending.length ? concat(this.pending, bytes) : bytes;
    const frames: Uint8Array[] = [];
    let at = 0;
    while (at < data.length) {
      const len = mp3FrameLength(data, at);
      if (len === null) {
        if (data.length - at < 4) break; // a header cut in two
        throw new Error(`The MP3 encoder gave bytes that are not an MPEG-1 Layer III frame at ${at}`);
      }
      if (at + len > data.length) break;
      frames.push(data.subarray(at, at + len));
      at += len;
    }
    this.pending = data.slice(at);
    return frames;
  }

  /** After the last push: no bytes may be left over. */
  end(): void {
    if (this.pending.length) throw new Error(`The MP3 encoder's last ${this.pending.length} bytes are not a whole frame`);
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
