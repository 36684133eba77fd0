// The VBR MP3 encoder's worker (mp3-vbr.ts): LAME from wasm-media-encoders off the export
// worker's thread, driven through Comlink by mp3-vbr-port.ts. Its WebAssembly is fetched from
// the app's origin (the package's inline data URL is a fetch the CSP refuses). PCM comes in and
// MP3 bytes go out as transferred buffers.

import * as Comlink from "comlink";
import { createEncoder } from "wasm-media-encoders";
import { vbrLameOf, type VbrLame } from "./mp3-vbr-lame";

let lame: VbrLame | null = null;

const api = {
  async init(quality: number, wasmUrl: string): Promise<void> {
    const response = await fetch(wasmUrl);
    if (!response.ok) throw new Error(`The MP3 encoder could not be loaded (HTTP ${response.status})`);
    lame = vbrLameOf(await createEncoder("audio/mpeg", new Uint8Array(await response.arrayBuffer())), quality);
  },
  async encode(pcm: Int16Array): Promise<Uint8Array> {
    if (!lame) throw new Error("The MP3 encoder is not started");
    const out = await lame.encode(pcm);
    return Comlink.transfer(out, [out.buffer]);
  },
  async finalize(): Promise<Uint8Array> {
    if (!lame) throw new Error("The MP3 encoder is not started");
    const out = await lame.finalize();
    return Comlink.transfer(out, [out.buffer]);
  },
};

export type VbrWorkerApi = typeof api;

Comlink.expose(api);
