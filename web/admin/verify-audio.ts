// "Verify audio" of the developer panel: renders a known tone (1 kHz sine on channel 1, 0.5 s,
// every effect off) through the studio's own engine worklet in an OfflineAudioContext and checks
// that its spectrum peaks at 1 kHz within one FFT bin. The same wasm and worklet the studio plays
// with, so a broken build, a failed worklet load or a wrong pitch all show here as a failure.

import wasmUrl from "../../dsp/build/engine.wasm?url";
import workletUrl from "../../worklets/engine.worklet.ts?worker&url";
import { defaultAudioState } from "../../dsp/host/schema/state";
import { PROCESSOR_NAME, ProgramPort, type FromWorklet, type ToWorklet } from "../../worklets/protocol";
import { checkTone, type ToneCheck } from "./spectrum";

export const VERIFY_TONE = { frequency: 1000, seconds: 0.5, sampleRate: 48000 } as const;
/** Silence the engine puts before the sound (its start delay), in seconds. */
const START_DELAY = 0.05;
const START_TIMEOUT_MS = 5000;

function toneState(frequency: number) {
  const s = defaultAudioState();
  return {
    channels: s.channels.map((c, i) => (i === 0 ? { ...c, frequency, waveform: "sine" as const, enabled: true } : { ...c, enabled: false })),
    effects: s.effects,
  };
}

/** Renders the verify tone and measures it (channel 1 of the output: left). */
export async function verifyAudio(tone = VERIFY_TONE): Promise<ToneCheck & { renderMs: number }> {
  const t0 = performance.now();
  const { frequency, seconds, sampleRate } = tone;
  const length = Math.ceil((START_DELAY + seconds + 0.1) * sampleRate);
  const ctx = new OfflineAudioContext({ numberOfChannels: 2, length, sampleRate });
  const [module] = await Promise.all([
    WebAssembly.compileStreaming(fetch(wasmUrl)),
    ctx.audioWorklet.addModule(workletUrl),
  ]);
  const node = new AudioWorkletNode(ctx, PROCESSOR_NAME, {
    numberOfInputs: 0,
    numberOfOutputs: 1,
    outputChannelCount: [2],
    processorOptions: { module },
  });
  node.connect(ctx.destination);
  const started = new Promise<boolean>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("The audio engine did not answer")), START_TIMEOUT_MS);
    node.port.onmessage = (e: MessageEvent<FromWorklet>) => {
      if (e.data.type === "started") {
        clearTimeout(timer);
        resolve(e.data.ok);
      } else if (e.data.type === "error") {
        clearTimeout(timer);
        reject(new Error(e.data.message));
      }
    };
  });
  const post = (msg: ToWorklet) => node.port.postMessage(msg);
  new ProgramPort(node.port, ctx.sampleRate).send(toneState(frequency));
  post({ type: "start", id: 1, delay: START_DELAY, duration: seconds });
  // Offline rendering runs faster than messages travel: hold it after the first block until the
  // engine has taken the start, so the tone lands where expected in the buffer.
  let startError: unknown = null;
  void ctx
    .suspend(128 / sampleRate)
    .then(() => started.then((ok) => { if (!ok) startError = new Error("The audio engine refused to start"); }, (err) => { startError = err; }))
    .then(() => ctx.resume());
  const buffer = await ctx.startRendering();
  post({ type: "dispose" });
  if (startError) throw startError;
  // The steady middle of the tone: past the start delay and fade-in, before the fade-out.
  const left = buffer.getChannelData(0);
  const from = Math.floor((START_DELAY + 0.03) * sampleRate);
  const to = Math.floor((START_DELAY + seconds - 0.03) * sampleRate);
  const result = checkTone(left.subarray(from, to), sampleRate, frequency);
  return { ...result, renderMs: performance.now() - t0 };
}
