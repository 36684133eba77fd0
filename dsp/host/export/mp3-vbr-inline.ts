// VBR MP3's LAME in this thread, from wasm-media-encoders' inline copy of its WebAssembly (a
// base64 data URL: fine in Node, refused by the studio's CSP in a browser, where
// mp3-vbr.worker.ts fetches the .wasm file instead).

import { createMp3Encoder } from "wasm-media-encoders";
import { vbrLameOf, type VbrLame } from "./mp3-vbr-lame";

export async function inlineVbrLame(quality: number): Promise<VbrLame> {
  return vbrLameOf(await createMp3Encoder(), quality);
}
