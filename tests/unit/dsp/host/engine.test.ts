// dsp/host/engine.ts, Engine.apply: unknown effect ids are ignored with one warning (however
// often they are applied); a broken effect update switches only that effect off.

import { afterEach, describe, expect, it, vi } from "vitest";
import type { AudioState } from "../../../../dsp/host/schema/state";
import { FS, engineWith, peak, renderFrames, singleTone } from "../assembly/helpers";

afterEach(() => vi.restoreAllMocks());

describe("Engine.apply", () => {
  it("ignores unknown effect ids with a single warning", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const s = singleTone(440);
    (s.effects as Record<string, unknown>).notAnEffect = { enabled: true, value: 1 };
    const e = engineWith(s);
    e.apply(s);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0][0])).toContain("notAnEffect");
    e.start();
    expect(peak(renderFrames(e, FS / 10).left)).toBeGreaterThan(0.01);
  });

  it("switches off an effect whose update is broken and keeps the sound going", () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const s = singleTone(440);
    s.effects.binaural = { ...s.effects.binaural, enabled: true, value: 10 };
    const e = engineWith(s);
    e.start();
    renderFrames(e, 4800);
    const broken = { ...s, effects: { ...s.effects, binaural: null } } as unknown as AudioState;
    expect(e.apply(broken)).toEqual(["binaural"]);
    const out = renderFrames(e, FS);
    // Binaural off again: both ears carry the same tone.
    const l = out.left.subarray(FS / 2);
    const r = out.right.subarray(FS / 2);
    expect(peak(l)).toBeGreaterThan(0.01);
    let diff = 0;
    for (let i = 0; i < l.length; i++) diff = Math.max(diff, Math.abs(l[i] - r[i]));
    expect(diff).toBe(0);
  });
});
