// The microphone, captured as PCM: getUserMedia's track into a 48 kHz AudioContext, through the
// capture worklet (worklets/capture.worklet.ts), which hands over every sample as it came (no
// compression, nothing resampled after the context). The take stops by itself at 10 minutes.
// The browser's own permission prompt appears at start(); the reasons it can fail are mapped to
// the panel's texts.

import captureUrl from "../../worklets/capture.worklet.ts?worker&url";
import { CAPTURE_PROCESSOR, type FromCapture, type ToCapture } from "../../worklets/capture-protocol";
import { MAX_RECORDING_SECONDS, RECORDING_RATE } from "../../dsp/host/model/recordings";
import { MIC_BUSY, MIC_MISSING, MIC_REFUSED, MIC_UNAVAILABLE } from "./messages";
import { toPcm16 } from "./wav";

export const MAX_FRAMES = MAX_RECORDING_SECONDS * RECORDING_RATE;

/** Why the microphone could not be opened, as the panel says it. */
export function micError(err: unknown): string {
  const name = err instanceof DOMException || err instanceof Error ? err.name : "";
  if (name === "NotAllowedError" || name === "SecurityError") return MIC_REFUSED;
  if (name === "NotFoundError" || name === "OverconstrainedError" || name === "DevicesNotFoundError") return MIC_MISSING;
  if (name === "NotReadableError" || name === "AbortError") return MIC_BUSY;
  return MIC_UNAVAILABLE;
}

export class MicCapture {
  private readonly chunks: Float32Array[] = [];
  private frames = 0;
  private finished: Promise<void>;
  private finish!: () => void;
  private stopped = false;

  private constructor(
    private readonly context: AudioContext,
    private readonly stream: MediaStream,
    private readonly node: AudioWorkletNode,
    private readonly onLimit: () => void,
  ) {
    this.finished = new Promise((done) => (this.finish = done));
    node.port.onmessage = (e: MessageEvent<FromCapture>) => {
      if (e.data.type === "done") return this.finish();
      if (this.frames >= MAX_FRAMES) return;
      const take = e.data.pcm.subarray(0, MAX_FRAMES - this.frames);
      this.chunks.push(take);
      this.frames += take.length;
      if (this.frames >= MAX_FRAMES) this.onLimit();
    };
  }

  /** Asks for the microphone (the browser's prompt) and starts recording; throws the panel's text. */
  static async start(onLimit: () => void): Promise<MicCapture> {
    if (!navigator.mediaDevices?.getUserMedia || typeof AudioWorkletNode === "undefined") throw new Error(MIC_UNAVAILABLE);
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({
        audio: { channelCount: 1, echoCancellation: false, noiseSuppression: false, autoGainControl: false },
      });
    } catch (err) {
      throw new Error(micError(err), { cause: err });
    }
    const context = new AudioContext({ sampleRate: RECORDING_RATE });
    try {
      await context.audioWorklet.addModule(captureUrl);
      const source = context.createMediaStreamSource(stream);
      const node = new AudioWorkletNode(context, CAPTURE_PROCESSOR, { numberOfInputs: 1, numberOfOutputs: 1, outputChannelCount: [1], channelCount: 1, channelCountMode: "explicit" });
      source.connect(node);
      node.connect(context.destination); // pulls the graph; the node outputs silence
      await context.resume();
      return new MicCapture(context, stream, node, onLimit);
    } catch (err) {
      stream.getTracks().forEach((t) => t.stop());
      void context.close();
      throw new Error(err instanceof Error && err.message ? `${MIC_BUSY} (${err.message})` : MIC_BUSY, { cause: err });
    }
  }

  /** Seconds recorded so far. */
  get seconds(): number {
    return this.frames / RECORDING_RATE;
  }

  /** Stops and returns the take as 16-bit PCM at 48 kHz (mono). */
  async stop(): Promise<Int16Array> {
    if (!this.stopped) {
      this.stopped = true;
      this.node.port.postMessage({ type: "flush" } satisfies ToCapture);
      await Promise.race([this.finished, new Promise((r) => setTimeout(r, 1000))]);
      this.stream.getTracks().forEach((t) => t.stop());
      this.node.disconnect();
      await this.context.close();
    }
    const all = new Float32Array(this.frames);
    let at = 0;
    for (const c of this.chunks) {
      all.set(c, at);
      at += c.length;
    }
    return toPcm16(all);
  }
}
