// The live-playback host: a thin AudioWorkletProcessor around dsp/host's Engine.
// process() only renders and copies (output.set); it reads the block length from its outputs,
// allocates nothing (views are cached per block length) and never logs. The single message it
// posts is when playback ends by itself (the duration or the sleep timer). After "dispose" it returns false, which lets the
// browser stop and collect it (a demo card's engine is thrown away on every stop).

import { Engine } from "../dsp/host/engine";
import { PROCESSOR_NAME, type FromWorklet, type ProcessorOptions, type ToWorklet } from "./protocol";

class ToneEngineProcessor extends AudioWorkletProcessor {
  private readonly engine: Engine;
  private wasPlaying = false;
  private disposed = false;

  constructor(options: AudioWorkletNodeOptions) {
    super(options);
    const { module } = options.processorOptions as ProcessorOptions;
    this.engine = new Engine(module, sampleRate);
    this.port.onmessage = (event: MessageEvent<ToWorklet>) => this.onMessage(event.data);
  }

  private onMessage(msg: ToWorklet): void {
    try {
      if (msg.type === "state") {
        for (const id of this.engine.apply(msg.state)) this.post({ type: "effect-failed", id });
      } else if (msg.type === "soundtrack") {
        this.engine.setSoundtrack(msg.audio);
      } else if (msg.type === "start") {
        const ok = this.engine.start({ delay: msg.delay, duration: msg.duration });
        this.wasPlaying = ok;
        this.post({ type: "started", id: msg.id, ok });
      } else if (msg.type === "stop") {
        this.engine.stop();
      } else if (msg.type === "levels") {
        this.engine.setLevels(msg.levels);
      } else if (msg.type === "sleep") {
        this.engine.sleep(msg.after, msg.fade);
      } else if (msg.type === "cancel-sleep") {
        this.engine.cancelSleep();
      } else if (msg.type === "dispose") {
        this.disposed = true;
      }
    } catch (err) {
      this.post({ type: "error", message: err instanceof Error ? err.message : String(err) });
    }
  }

  private post(msg: FromWorklet): void {
    this.port.postMessage(msg);
  }

  process(_inputs: Float32Array[][], outputs: Float32Array[][]): boolean {
    if (this.disposed) return false;
    const out = outputs[0];
    if (!out || out.length === 0) return true;
    const n = out[0].length;
    const { left, right } = this.engine.render(n);
    out[0].set(left);
    if (out.length > 1) out[1].set(right);
    if (this.wasPlaying && !this.engine.playing) {
      this.wasPlaying = false;
      this.post({ type: "ended" });
    }
    return true;
  }
}

registerProcessor(PROCESSOR_NAME, ToneEngineProcessor);
