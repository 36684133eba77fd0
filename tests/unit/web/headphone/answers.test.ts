// The headphone check's answer logic (every combination of step 1's answers, the mono and
// polarity answers, when the output counts as mono) and the two mono replacements applied to a
// real studio store: what the studio shows afterwards is what the listener was told.

import { describe, expect, it } from "vitest";
import { effectDef } from "../../../../dsp/host/model/catalogue";
import { MAX_FREQUENCY_HZ } from "../../../../dsp/host/model/limits";
import { createStudioStore } from "../../../../web/state/studio-store";
import {
  HEARD, checkResults, judgeLeftRight, judgeMono, judgePolarity, outputIsMono, type Heard, type LeftRightResult,
} from "../../../../web/headphone/answers";
import { applyIsochronic, applyMonaural, currentBeat, isochronicRate, monauralPlan } from "../../../../web/headphone/beat-alternatives";
import {
  ISOCHRONIC_NOT_IN_PLAN, LEFT_RIGHT_RESULTS, MONAURAL_NOT_IN_PLAN, MONO_RESULTS, POLARITY_RESULTS, balanceText, switchedToIsochronic, switchedToMonaural,
} from "../../../../web/headphone/messages";
import { toBalance } from "../../../../web/headphone/BalanceStep";
import { ANONYMOUS } from "../../../../web/account/entitlements";
import { gatePatch, studioGate } from "../../../../web/account/studio-gating";

/** A studio store under a free account's plan gate, enforced after every change as the studio
 *  does (web/account/hooks.ts). */
function freeStore() {
  const store = createStudioStore();
  const gate = studioGate("signed_in", { ...ANONYMOUS, signedIn: true });
  const enforce = () => {
    const { patch } = gatePatch(store.getState(), gate);
    if (patch) store.setState(patch);
  };
  enforce();
  store.subscribe(enforce);
  return store;
}

describe("left and right", () => {
  it("names the four faults a listener can hear", () => {
    expect(judgeLeftRight("left", "right")).toBe("correct");
    expect(judgeLeftRight("right", "left")).toBe("swapped");
    expect(judgeLeftRight("both", "both")).toBe("mono");
    expect(judgeLeftRight("nothing", "right")).toBe("left-missing");
    expect(judgeLeftRight("left", "nothing")).toBe("right-missing");
    expect(judgeLeftRight("nothing", "nothing")).toBe("silent");
  });

  it("a channel heard nowhere is missing, wherever the other one went", () => {
    for (const other of ["left", "right", "both"] as const) {
      expect(judgeLeftRight("nothing", other)).toBe("left-missing");
      expect(judgeLeftRight(other, "nothing")).toBe("right-missing");
    }
  });

  it("answers no fault explains are unclear, and every one of the 16 has a text", () => {
    expect(judgeLeftRight("left", "left")).toBe("unclear");
    expect(judgeLeftRight("right", "right")).toBe("unclear");
    expect(judgeLeftRight("both", "right")).toBe("unclear");
    expect(judgeLeftRight("left", "both")).toBe("unclear");
    const seen = new Set<LeftRightResult>();
    for (const a of HEARD) for (const b of HEARD) seen.add(judgeLeftRight(a as Heard, b as Heard));
    expect([...seen].sort()).toEqual(Object.keys(LEFT_RIGHT_RESULTS).sort());
  });

  it("says so in words", () => {
    expect(LEFT_RIGHT_RESULTS.swapped).toMatch(/^Left and right are swapped/);
    expect(LEFT_RIGHT_RESULTS["left-missing"]).toMatch(/^The left side is missing/);
  });
});

describe("mono test and polarity", () => {
  it("tone 2 fading away means mono", () => {
    expect(judgeMono("same")).toBe("stereo");
    expect(judgeMono("quieter")).toBe("mono");
    expect(judgeMono("neither")).toBe("silent");
    expect(MONO_RESULTS.mono).toBe("Your output is mono.");
  });

  it("the fuller tone is the one that arrived in phase", () => {
    expect(judgePolarity("first")).toBe("correct");
    expect(judgePolarity("second")).toBe("inverted");
    expect(judgePolarity("same")).toBe("unclear");
    expect(POLARITY_RESULTS.inverted).toMatch(/^One ear is inverted/);
  });

  it("the mono test decides whether the output is mono; without it, step 1's both/both", () => {
    expect(checkResults({})).toEqual({ leftRight: null, mono: null, polarity: null });
    expect(checkResults({ tone1: "left" })).toEqual({ leftRight: null, mono: null, polarity: null });
    expect(outputIsMono(checkResults({ tone1: "both", tone2: "both" }))).toBe(true);
    // On loudspeakers both ears hear both sides: the antiphase tone still says stereo.
    expect(outputIsMono(checkResults({ tone1: "both", tone2: "both", mono: "same" }))).toBe(false);
    expect(outputIsMono(checkResults({ tone1: "left", tone2: "right", mono: "quieter" }))).toBe(true);
    expect(outputIsMono(checkResults({ tone1: "left", tone2: "right" }))).toBe(false);
    expect(checkResults({ tone1: "right", tone2: "left", mono: "same", polarity: "second" })).toEqual({
      leftRight: "swapped", mono: "stereo", polarity: "inverted",
    });
  });
});

describe("replacing binaural beats", () => {
  const iso = effectDef("isoPulses")!;

  it("isochronic pulses run at the beat, clamped to their range and step", () => {
    expect(isochronicRate(10)).toBe(10);
    expect(isochronicRate(7.5)).toBe(7.5);
    expect(isochronicRate(40)).toBe(iso.max);
    expect(isochronicRate(0.5)).toBe(0.5);
    expect(isochronicRate(0.04)).toBe(iso.min);
    expect(isochronicRate(Number.NaN)).toBe(iso.default);
  });

  it("'Use isochronic pulses' switches binaural off and isoPulses on, in the studio store", () => {
    const store = createStudioStore();
    store.getState().setEffect("binaural", { enabled: true, value: 25 });
    const said = applyIsochronic(store);
    const fx = store.getState().effects;
    expect(fx.binaural.enabled).toBe(false);
    expect(fx.binaural.value).toBe(25); // the beat is kept for when binaural comes back
    expect(fx.isoPulses).toEqual({ enabled: true, value: 12 });
    expect(said).toBe(switchedToIsochronic(12));
    expect(said).toBe("Binaural Beat is off and Isochronic Pulses are on at 12 Hz.");
  });

  it("'Use monaural beats' puts a free channel at channel 1 + the beat", () => {
    const store = createStudioStore();
    store.getState().setEffect("binaural", { enabled: true, value: 10 });
    store.getState().setFrequency(1, 200);
    store.getState().setWaveform(1, "triangle");
    store.getState().setChannelOn(3, false);
    store.getState().setChannelOn(4, false);
    const said = applyMonaural(store);
    const s = store.getState();
    expect(s.effects.binaural.enabled).toBe(false);
    expect(s.channels[0]).toMatchObject({ enabled: true, frequency: 200, waveform: "triangle" });
    expect(s.channels[2]).toMatchObject({ enabled: true, frequency: 210, waveform: "triangle" });
    expect(s.channels[3]).toMatchObject({ enabled: false, frequency: 0 });
    expect(said).toBe("Binaural Beat is off. Channel 3 plays 210 Hz beside channel 1's 200 Hz: a 10 Hz monaural beat.");
  });

  it("with all four channels on, the one after the base takes the beat", () => {
    const store = createStudioStore(); // 432, 528, 639, 741, binaural at its default 10 Hz
    expect(currentBeat(store.getState().effects)).toBe(10);
    applyMonaural(store);
    expect(store.getState().channels.map((c) => c.frequency)).toEqual([432, 442, 639, 741]);
  });

  it("with no channel sounding, channel 1 comes back first", () => {
    const store = createStudioStore();
    for (const id of [1, 2, 3, 4]) store.getState().setChannelOn(id, false);
    expect(monauralPlan(store.getState().channels, 10)).toBeNull();
    applyMonaural(store);
    expect(store.getState().channels.map((c) => [c.enabled, c.frequency])).toEqual([[true, 432], [true, 442], [false, 0], [false, 0]]);
  });

  it("on a plan without them, nothing is claimed: the gate undoes the change and the message says so", () => {
    const store = freeStore();
    expect(store.getState().channels.map((c) => c.enabled)).toEqual([true, false, false, false]);
    expect(applyIsochronic(store)).toBe(ISOCHRONIC_NOT_IN_PLAN);
    expect(store.getState().effects.isoPulses.enabled).toBe(false);
    expect(applyMonaural(store)).toBe(MONAURAL_NOT_IN_PLAN);
    expect(store.getState().channels[1]).toMatchObject({ enabled: false, frequency: 0 });
  });

  it("at the top of the range the partner goes below, and decimals stay to two places", () => {
    const channels = createStudioStore().getState().channels.map((c) => ({ ...c, frequency: c.id === 1 ? MAX_FREQUENCY_HZ - 3 : 0, enabled: c.id === 1 }));
    expect(monauralPlan(channels, 7.5)).toMatchObject({ base: 1, target: 2, frequency: MAX_FREQUENCY_HZ - 10.5 });
    const plain = channels.map((c) => (c.id === 1 ? { ...c, frequency: 100.1 } : c));
    expect(monauralPlan(plain, 0.2)!.frequency).toBe(100.3);
    expect(switchedToMonaural({ base: 1, baseFrequency: 100.1, target: 2, frequency: 100.3 }, 0.2)).toContain("a 0.2 Hz monaural beat");
  });
});

describe("balance", () => {
  it("reads as which ear is quieter, and stays in the levels model's range and resolution", () => {
    expect(balanceText(0)).toBe("Centred");
    expect(balanceText(2.5)).toBe("Left 2.5 dB quieter");
    expect(balanceText(-12)).toBe("Right 12.0 dB quieter");
    expect(toBalance(30)).toBe(12);
    expect(toBalance(-0.04)).toBe(0);
    expect(Object.is(toBalance(-0.04), -0)).toBe(false);
    expect(toBalance(Number.NaN)).toBe(0);
    expect(toBalance(1.26)).toBe(1.3);
  });
});
