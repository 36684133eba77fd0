// The microphone's capture for the studio's Recordings panel (web/recordings/capture.ts): an
// AudioWorkletProcessor that copies the first input channel of every render quantum, as PCM at the
// context's rate (48 kHz), into 4096-frame chunks posted to the page (transferred, not copied). It
// outputs silence, so the take is never played back to the speakers while it records. "flush"
// posts the frames not yet sent and then "done".

import { CAPTURE_PROCESSOR, type FromCapture, type ToCapture } from "./capture-protocol";

const CHUNK = 4096;

class CaptureProcessor extends AudioWorkletProcessor {
  private chunk = new Float32Array(CHUNK);
  private filled = 0;
  private open = true;

  constructor(options: AudioWorkletNodeOptions) {
    super(options);
    this.port.onmessage = (event: MessageEvent<ToCapture>) => {
      if (event.data.type !== "flush") return;
      this.send();
      this.port.postMessage({ type: "done" } satisfies FromCapture);
      this.open = false;
    };
  }

  private send(): void {
    if (this.filled === 0) return;
    const pcm = this.chunk.slice(0, this.filled);
    this.port.postMessage({ type: "chunk", pcm } satisfies FromCapture, [pcm.buffer]);
    this.chunk = new Float32Array(CHUNK);
    this.filled = 0;
  }

  process(inputs: Float32Array[][]): boolean {
    if (!this.open) return false;
    const input = inputs[0]?.[0];
    if (input) {
      let i = 0;
      while (i < input.length) {
        const n = Math.min(input.length - i, CHUNK - this.filled);
        this.chunk.set(input.subarray(i, i + n), this.filled);
        this.filled += n;
        i += n;
        if (this.filled === CHUNK) this.send();
      }
    }
    return true;
  }
}

registerProcessor(CAPTURE_PROCESSOR, CaptureProcessor);
