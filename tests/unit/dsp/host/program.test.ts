// dsp/host/program.ts: the session compiled on the page, loaded by the engine on the audio
// thread. A program posted through a real MessagePort (its buffers transferred, as the studio
// posts it) plays the same samples as the state applied in one process (the export worker and the
// CLI), through a run of live edits; an edit sends only what changed; a transfer leaves the
// compiler's noise tables intact for the next compile.

import { MessageChannel } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { createNodeEngine } from "../../../../dsp/host/node";
import { ProgramCompiler, isEmptyProgram, programTransfer, ROW, type Program } from "../../../../dsp/host/program";
import type { SoundState } from "../../../../dsp/host/model/state";
import { readSbgVoices } from "../../../../dsp/host/sbg/index";
import { FS, renderFrames, singleTone } from "../assembly/helpers";

const SPECTRUM = Array.from({ length: 32 }, (_, i) => (1 - i / 40).toFixed(3)).join(" ");

/** A schedule with binaural and isochronic voices, a noiseNN source, a slide and a later step. */
function schedule(): SoundState {
  const r = readSbgVoices(
    `-SE\nnoise00: ${SPECTRUM}\n` +
      "a: noise00/20 200+4/30 300@6/10\nb: pink/15 250+8/25\n" +
      "NOW a\nNOW+00:00:02 a ->\nNOW+00:00:04 b\n",
  );
  if (!r.ok) throw new Error(r.errors.map((e) => e.message).join("; "));
  return r.session;
}

/** Posts `program` through a MessagePort with its buffers transferred and answers what arrives. */
async function throughPort(program: Program): Promise<Program> {
  const { port1, port2 } = new MessageChannel();
  const got = new Promise<Program>((resolve) => port2.once("message", (m: { program: Program }) => resolve(m.program)));
  port1.postMessage({ type: "program", program }, programTransfer(program));
  const p = await got;
  port1.close();
  return p;
}

function sameSamples(a: Float32Array, b: Float32Array): boolean {
  return a.length === b.length && a.every((x, i) => Object.is(x, b[i]));
}

describe("programs", () => {
  it("a program sent through a MessagePort plays the samples apply() plays, edit after edit", async () => {
    const edits: ((s: SoundState) => SoundState)[] = [
      (s) => ({ ...s, channels: s.channels.map((c, i) => (i === 0 ? { ...c, enabled: true, frequency: 330, volume: 0.4 } : c)) }),
      (s) => ({ ...s, effects: { ...s.effects, reverb: { ...s.effects.reverb, enabled: true, value: 40 } } }),
      (s) => {
        const next = structuredClone(s);
        const v = next.voices?.find((x) => x?.kind === "binaural") as { amp: number } | undefined;
        if (v) v.amp = 12;
        return next;
      },
      (s) => ({ ...s, timeline: undefined }),
    ];
    const direct = createNodeEngine(FS);
    const loaded = createNodeEngine(FS);
    const compiler = new ProgramCompiler(FS);
    let state = schedule();
    direct.apply(state);
    loaded.load(await throughPort(compiler.compile(state).program));
    for (const e of [direct, loaded]) {
      e.setCompressor(false);
      e.start({ delay: 0 });
    }
    for (const edit of [null, ...edits]) {
      if (edit) {
        state = edit(state);
        direct.apply(state);
        loaded.load(await throughPort(compiler.compile(state).program));
      }
      const a = renderFrames(direct, FS);
      const b = renderFrames(loaded, FS);
      expect(Math.max(...a.left.subarray(0, 4800).map(Math.abs))).toBeGreaterThan(0.01);
      expect(sameSamples(a.left, b.left) && sameSamples(a.right, b.right)).toBe(true);
    }
  });

  it("an edit sends only what changed: an unchanged state nothing, a volume one channel's row", () => {
    const compiler = new ProgramCompiler(FS);
    const s = singleTone(440);
    expect(isEmptyProgram(compiler.compile(s).program)).toBe(false);
    expect(isEmptyProgram(compiler.compile(structuredClone(s)).program)).toBe(true);
    const louder = { ...s, channels: s.channels.map((c, i) => (i === 0 ? { ...c, volume: c.volume / 2 } : c)) };
    const { program } = compiler.compile(louder);
    expect(program).toMatchObject({ voices: null, recordings: null, timeline: null, effects: null });
    expect(program.channels?.length).toBe(ROW.channel);
    expect(program.channels?.[0]).toBe(0);
    // The effect the engine refused is sent again the next time, even unchanged.
    const reverbOn = { ...louder, effects: { ...louder.effects, reverb: { ...louder.effects.reverb, enabled: true } } };
    expect(compiler.compile(reverbOn).program.effectIds).toEqual(["reverb"]);
    expect(compiler.compile(reverbOn).program.effects).toBeNull();
    compiler.forgetEffect("reverb");
    expect(compiler.compile(reverbOn).program.effectIds).toEqual(["reverb"]);
  });

  it("transferring a program's noise tables leaves the compiler's own for the next session", async () => {
    const first = new ProgramCompiler(FS).compile(schedule()).program;
    const sent = first.voices !== null && first.voices !== "clear" ? first.voices.spectra : [];
    expect(sent.length).toBeGreaterThan(0);
    await throughPort(first);
    expect(sent[0].table.length).toBe(0); // detached on this side
    const again = new ProgramCompiler(FS).compile(schedule()).program;
    const tables = again.voices !== null && again.voices !== "clear" ? again.voices.spectra : [];
    expect(tables.map((t) => t.table.length)).toEqual(tables.map(() => expect.any(Number)));
    expect(Math.min(...tables.map((t) => t.table.length))).toBeGreaterThan(0);
  });
});
