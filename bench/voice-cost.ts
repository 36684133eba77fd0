// Voices in Node: what each kind of voice costs (nanoseconds per frame added to a session of
// silent voices), and the heaviest SBaGen sound, sixteen binaural pairs and pink noise, rendered by
// the engine and through the export pipeline (x realtime; target 1000x, a 12-hour file in 45 s).
// Measured like the per-effect costs (bench/fx-cost.ts): rounds with the reference synth, in passes
// spread over the bench run, the base's best over every round subtracted.
// The voice recording row (`voice/recording`): one looped 16-bit mono clip placed in the session
// (dsp/assembly/recordings.ts), what it adds to a playing engine whose only placement starts after
// the render (the same pipeline running, no clip frame read): the clip's own cost, target under
// 2 ns/frame. (The silent base above does not play at all, so each voice row also counts the
// pipeline, about 1.8 ns/frame.)
// `npx tsx bench/voice-cost.ts` prints them.

import { fileURLToPath } from "node:url";
import { exportPipeline, nodeRenderer } from "./dsp";
import { FS, Passes, REFERENCE_ID, makeRow } from "./measure";
import { BENCH_VOICES, benchSoundtrack, silentVoicesPatch, voicesPatch } from "./patches";
import { NodeYardstick } from "./reference";
import type { BenchRow } from "./schema";
import type { RecordingClip, RecordingPlacement } from "../dsp/host/model/recordings";

/** A minute of noise as a recording, and the session that loops it under everything. */
function benchRecording(): { clip: RecordingClip; placement: RecordingPlacement; idle: RecordingPlacement } {
  const frames = 60 * FS;
  const pcm = new Int16Array(frames);
  let x = 54321;
  for (let i = 0; i < frames; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    pcm[i] = ((x >> 15) - 32768) >> 2;
  }
  const clip = { id: "bench", rate: FS, frames, pcm };
  const placement = { id: "bench", name: "bench", trimStart: 0, trimEnd: 0, gainDb: -6, at: 0, every: 0, loop: true };
  return { clip, placement, idle: { ...placement, at: 1e6, loop: false } };
}

const SECONDS = 20;
const nsPerFrame = (xRealtime: number) => 1e9 / (xRealtime * FS);

export interface VoiceBench {
  pass(): void;
  rows(): BenchRow[];
}

export function voiceBench(quick: boolean, yard: NodeYardstick): VoiceBench {
  const n = quick ? 5 : 10;
  const sessionSeconds = quick ? 20 : 600;
  const base = nodeRenderer(silentVoicesPatch());
  const passes = new Passes(yard.sample);
  const kinds = Object.keys(BENCH_VOICES);
  const track = benchSoundtrack();
  for (const kind of kinds) {
    const s = silentVoicesPatch();
    // A soundtrack effect is measured with the mix voice it works on (its row includes the mix).
    s.voices = kind.startsWith("mix") && kind !== "mix" ? [BENCH_VOICES.mix, BENCH_VOICES[kind]] : [BENCH_VOICES[kind]];
    const one = nodeRenderer(s, kind.startsWith("mix") ? track : null);
    passes.add(kind, [() => nsPerFrame(base(SECONDS)), () => nsPerFrame(one(SECONDS))]);
  }
  const rec = benchRecording();
  const withRecording = nodeRenderer({ ...silentVoicesPatch(), recordings: [rec.placement] }, null, [rec.clip]);
  const idleRecording = nodeRenderer({ ...silentVoicesPatch(), recordings: [rec.idle] }, null, [rec.clip]);
  passes.add("recording", [() => nsPerFrame(idleRecording(SECONDS)), () => nsPerFrame(withRecording(SECONDS))]);
  const session = nodeRenderer(voicesPatch());
  const pipeline = exportPipeline(voicesPatch());
  pipeline(20); // tier-up warm-up of the pipeline's JavaScript
  passes.add("session", [() => session(sessionSeconds)]);
  passes.add("session-export", [() => pipeline(sessionSeconds)]);
  const node = { yardstick: REFERENCE_ID, unit: "x realtime", better: "higher" as const, audioSeconds: sessionSeconds, target: ">= 1000" };
  const rows = (): BenchRow[] => {
    const baseNs = Math.min(...kinds.flatMap((k) => passes.get(k).samples[0]));
    const perKind = kinds.map((kind) => {
      const { yard: y, samples } = passes.get(kind);
      return makeRow(
        { id: `voice/${kind}`, kind: "voice", name: kind.startsWith("mix") && kind !== "mix" ? `${kind} on the soundtrack (mix included)` : `${kind} voice`, unit: "ns/frame", better: "lower", audioSeconds: SECONDS, yardstick: REFERENCE_ID, details: { baseNsPerFrame: baseNs } },
        samples[1].map((ns) => ns - baseNs),
        y,
      );
    });
    const r = passes.get("recording");
    const idleNs = Math.min(...r.samples[0]);
    const recordingRow = makeRow(
      { id: "voice/recording", kind: "voice", name: "a voice recording, 16-bit mono, looped (over a playing engine)", unit: "ns/frame", better: "lower", audioSeconds: SECONDS, yardstick: REFERENCE_ID, target: "< 2", details: { baseNsPerFrame: idleNs } },
      r.samples[1].map((ns) => ns - idleNs),
      r.yard,
    );
    const s = passes.get("session"), e = passes.get("session-export");
    return [
      makeRow({ ...node, id: "dsp/node/voices-16", kind: "dsp", name: "16 binaural voices + pink noise, engine in Node" }, s.samples[0], s.yard),
      makeRow({ ...node, id: "export/node/voices-16", kind: "export", name: "16 binaural voices + pink noise, export pipeline to memory in Node" }, e.samples[0], e.yard),
      ...perKind,
      recordingRow,
    ];
  };
  return { pass: () => passes.pass(n), rows };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const bench = voiceBench(false, await NodeYardstick.create());
  for (let i = 0; i < 3; i++) bench.pass();
  for (const r of bench.rows()) console.log(`${r.id.padEnd(24)} ${r.value.toFixed(1).padStart(8)} ${r.unit} (best of ${r.samples.length}, spread ${r.spreadPercent.toFixed(0)} %)`);
}
