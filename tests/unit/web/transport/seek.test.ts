// Seeking in a session: the sound cut at t starts in the state the session has at t, and the
// steps after t come t seconds earlier; the transport names the step that plays.
import { describe, expect, it } from "vitest";
import { defaultAudioState, type SoundState } from "../../../../dsp/host/schema/state";
import { soundFrom, stepNameAt } from "../../../../web/transport/seek";
import { clock } from "../../../../web/transport/TransportBar";

function session(): SoundState {
  const s = defaultAudioState();
  return {
    channels: s.channels,
    effects: s.effects,
    timeline: {
      steps: [
        { at: 0, ramp: "hold", label: "start" },
        { at: 60, ramp: "linear", channels: [{ id: 1, frequency: 532 }] },
        { at: 120, ramp: "hold", channels: [{ id: 1, frequency: 300 }], label: "low" },
      ],
    },
  };
}

describe("seek", () => {
  it("cuts the session at t: the state at t (half-way up a ramp) at 0:00, the later steps t earlier", () => {
    const cut = soundFrom(session(), 30);
    expect(cut.channels[0].frequency).toBeCloseTo(482, 6);
    expect(cut.timeline!.steps.map((s) => s.at)).toEqual([0, 30, 90]);
    expect(cut.timeline!.steps[1]).toMatchObject({ ramp: "linear", channels: [{ id: 1, frequency: 532 }] });
    expect(cut.timeline!.steps[0].label).toBe("start");
  });

  it("leaves a sound without a timeline, or a seek to 0, as it is", () => {
    const s = session();
    expect(soundFrom(s, 0)).toBe(s);
    const plain = { ...s, timeline: undefined };
    expect(soundFrom(plain, 50)).toBe(plain);
  });

  it("names the step that plays: its label, else Step n", () => {
    expect(stepNameAt(session(), 10)).toBe("start");
    expect(stepNameAt(session(), 61)).toBe("Step 2");
    expect(stepNameAt(session(), 500)).toBe("low");
    expect(stepNameAt({ timeline: undefined }, 5)).toBeNull();
  });

  it("writes times as m:ss, and h:mm:ss from an hour", () => {
    expect(clock(0)).toBe("0:00");
    expect(clock(75.9)).toBe("1:15");
    expect(clock(3725)).toBe("1:02:05");
    expect(clock(-3)).toBe("0:00");
  });
});
