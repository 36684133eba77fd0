// VBR MP3's LAME core (mp3-vbr.ts): wasm-media-encoders' MP3 encoder set to a VBR quality for
// 48 kHz stereo, taking the renderer's interleaved 16-bit PCM. The same code runs inline (Node:
// mp3-vbr-inline.ts) and in the browser's encoder worker (mp3-vbr.worker.ts).

import type { WasmMediaEncoder } from "wasm-media-encoders";

const SAMPLE_RATE = 48000;

/** LAME in WebAssembly taking interleaved 16-bit stereo and giving MP3 bytes (whole frames or
 *  not: Mp3FrameSplitter cuts them). */
export interface VbrLame {
  encode(pcm: Int16Array): Promise<Uint8Array>;
  finalize(): Promise<Uint8Array>;
  close(): void;
}

/** `lame` (wasm-media-encoders' MP3 encoder, however its WebAssembly was loaded) set to VBR
 *  quality `quality` for 48 kHz stereo, in this thread. */
export function vbrLameOf(lame: WasmMediaEncoder<"audio/mpeg">, quality: number): VbrLame {
  lame.configure({ sampleRate: SAMPLE_RATE, channels: 2, vbrQuality: quality });
  let left = new Float32Array(0);
  let right = new Float32Array(0);
  return {
    async encode(pcm) {
      const n = pcm.length >> 1;
      if (left.length < n) {
        left = new Float32Array(n);
        right = new Float32Array(n);
      }
      // Exact: every 16-bit value has a float32 of its own, and LAME scales back by 32768.
      for (let i = 0, j = 0; i < n; i++, j += 2) {
        left[i] = pcm[j] / 32768;
        right[i] = pcm[j + 1] / 32768;
      }
      // The returned view is the encoder's own buffer: copied before the next call.
      return lame.encode([left.subarray(0, n), right.subarray(0, n)]).slice();
    },
    async finalize() {
      return lame.finalize().slice();
    },
    close() {},
  };
}
