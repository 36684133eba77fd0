// The live-playback host: a thin AudioWorkletProcessor around dsp/host's Engine. The session
// reaches it compiled (dsp/host/program.ts, on the page): a message only copies tables into the
// engine, between two blocks, never compiles on the audio thread.
// process() only renders and copies (output.set); it reads the block length from its outputs,
// allocates nothing (views are cached per block length) and never logs. It posts when playback
// ends by itself (the duration or the sleep timer), and, at the rate the client asks (the
// displays' frame rate), the level meter's figures: peak and RMS of what it rendered since the
// last post and the limiter's lowest gain, in one object it reuses. After "dispose" it returns false, which lets the
// browser stop and collect it (a demo card's engine is thrown away on every stop).

import { Engine } from "../dsp/host/engine";
import { PROCESSOR_NAME, type FromWorklet, type MeterReading, type ProcessorOptions, type ToWorklet } from "./protocol";

class ToneEngineProcessor extends AudioWorkletProcessor {
  private readonly engine: Engine;
  private wasPlaying = false;
  private disposed = false;
  // The level meter: frames between posts (0: off), and what was rendered since the last one.
  private meterEvery = 0;
  private meterFrames = 0;
  private meterPeak = 0;
  private meterSum = 0;
  private meterGain = 1;
  private meterSilent = true;
  private readonly meter: MeterReading = { type: "meter", peak: 0, rms: 0, gain: 1 };

  constructor(options: AudioWorkletNodeOptions) {
    super(options);
    const { module } = options.processorOptions as ProcessorOptions;
    this.engine = new Engine(module, sampleRate);
    this.port.onmessage = (event: MessageEvent<ToWorklet>) => this.onMessage(event.data);
  }

  private onMessage(msg: ToWorklet): void {
    try {
      if (msg.type === "program") {
        for (const id of this.engine.load(msg.program)) this.post({ type: "effect-failed", id });
      } else if (msg.type === "soundtrack") {
        this.engine.setSoundtrack(msg.audio);
      } else if (msg.type === "recordings") {
        this.engine.setRecordingClips(msg.clips);
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
      } else if (msg.type === "meter-rate") {
        this.meterEvery = msg.hz > 0 ? Math.max(128, Math.round(sampleRate / msg.hz)) : 0;
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

  /** Adds the block to the meter's figures and posts them every meterEvery frames while sound
   *  plays (and once more when it has stopped, so the meter falls to silence). */
  private measure(left: Float32Array, right: Float32Array, n: number): void {
    let peak = this.meterPeak;
    let sum = this.meterSum;
    for (let i = 0; i < n; i++) {
      const l = left[i];
      const r = right[i];
      const m = Math.max(Math.abs(l), Math.abs(r));
      if (m > peak) peak = m;
      sum += l * l + r * r;
    }
    this.meterPeak = peak;
    this.meterSum = sum;
    const g = this.engine.limiterGain;
    if (g < this.meterGain) this.meterGain = g;
    this.meterFrames += n;
    if (this.meterFrames < this.meterEvery) return;
    const silent = peak === 0;
    if (!(silent && this.meterSilent)) {
      this.meter.peak = peak;
      this.meter.rms = Math.sqrt(sum / (2 * this.meterFrames));
      this.meter.gain = this.meterGain;
      this.port.postMessage(this.meter);
    }
    this.meterSilent = silent;
    this.meterFrames = 0;
    this.meterPeak = 0;
    this.meterSum = 0;
    this.meterGain = 1;
  }

  process(_inputs: Float32Array[][], outputs: Float32Array[][]): boolean {
    if (this.disposed) return false;
    const out = outputs[0];
    if (!out || out.length === 0) return true;
    const n = out[0].length;
    const { left, right } = this.engine.render(n);
    out[0].set(left);
    if (out.length > 1) out[1].set(right);
    if (this.meterEvery > 0) this.measure(left, right, n);
    if (this.wasPlaying && !this.engine.playing) {
      this.wasPlaying = false;
      this.post({ type: "ended" });
    }
    return true;
  }
}

registerProcessor(PROCESSOR_NAME, ToneEngineProcessor);
