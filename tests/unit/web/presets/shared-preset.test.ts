// Sharing and opening presets in the web app (web/presets/shared-preset.ts) with a fake fetch: the
// share call and its link, which URL asks for what, the spec's toast for every outcome (config,
// id, 404, no data, bad data, server and network failures), and the store's load(): a preset
// opened while signed out comes back with its own frequencies once the gate opens.

import { beforeEach, describe, expect, it, vi } from "vitest";
import { encodeConfig, presetData } from "../../../../dsp/host/schema/preset";
import { defaultAudioState } from "../../../../dsp/host/schema/state";
import { gatePatch, studioGate, unlockPatch } from "../../../../web/account/studio-gating";
import { ANONYMOUS } from "../../../../web/account/entitlements";
import { createStudioStore } from "../../../../web/state/studio-store";
import { PRESET_MESSAGES } from "../../../../web/presets/messages";
import { openSharedPreset, presetName, presetRequest, presetUrl, sharePreset } from "../../../../web/presets/shared-preset";

interface Call { url: string; method: string; auth: string | null; body: unknown }

function fakeFetch(answer: (call: Call) => [number, unknown] | "network") {
  const calls: Call[] = [];
  const impl = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const call: Call = { url: String(input), method: init?.method ?? "GET", auth: new Headers(init?.headers).get("authorization"), body: init?.body ? JSON.parse(String(init.body)) : undefined };
    calls.push(call);
    const out = answer(call);
    if (out === "network") throw new TypeError("Failed to fetch");
    return new Response(JSON.stringify(out[1]), { status: out[0], headers: { "Content-Type": "application/json" } });
  }) as typeof fetch;
  return { impl, calls };
}

function sample() {
  const data = presetData(defaultAudioState());
  data.channels[2] = { ...data.channels[2], frequency: 7.83, waveform: "square" };
  data.effects.chorus = { enabled: true, value: 60 };
  data.duration = 900;
  return data;
}

describe("share", () => {
  it("POSTs {name, data} with the bearer and resolves with the id; the link is /preset/{id}", async () => {
    const f = fakeFetch(() => [201, { id: "abc_DEF-123" }]);
    expect(await sharePreset({ ...sample(), isPlaying: true } as never, "tok", f.impl)).toBe("abc_DEF-123");
    expect(f.calls).toEqual([{ url: "/api/presets/user", method: "POST", auth: "Bearer tok", body: { name: "432 + 528 + 7.83 + 741 Hz, Chorus", data: sample() } }]);
    expect(presetUrl("https://tones.example", "abc_DEF-123")).toBe("https://tones.example/preset/abc_DEF-123");
  });

  it("rejects on 401, 403, 429, network failures and answers without an id", async () => {
    for (const out of [[401, { error: "Please sign in to continue" }], [403, { error: "Pro" }], [429, { error: "slow" }], "network", [201, {}]] as const) {
      await expect(sharePreset(sample(), "tok", fakeFetch(() => out as never).impl)).rejects.toThrow();
    }
  });

  it("names a preset after its sounding channels and effects, at most 100 characters", () => {
    const silent = sample();
    silent.channels = silent.channels.map((c) => ({ ...c, enabled: false }));
    expect(presetName(silent)).toBe("Silence, Chorus");
    const busy = sample();
    for (const id of Object.keys(busy.effects)) busy.effects[id] = { ...busy.effects[id], enabled: true };
    expect(presetName(busy).length).toBeLessThanOrEqual(100);
  });
});

describe("which URL asks for what", () => {
  it("?config= wins over the path; otherwise the id; otherwise nothing", () => {
    expect(presetRequest("?config=abc", "id1")).toEqual({ kind: "config", value: "abc" });
    expect(presetRequest("?config=", undefined)).toEqual({ kind: "config", value: "" });
    expect(presetRequest("?x=1", "id1")).toEqual({ kind: "id", id: "id1" });
    expect(presetRequest("", undefined)).toBeNull();
  });
});

describe("opening a shared preset", () => {
  beforeEach(() => {
    vi.spyOn(console, "warn").mockImplementation(() => {}); // the reasons are logged, not shown
  });
  const noFetch = fakeFetch(() => {
    throw new Error("a config needs no request");
  }).impl;

  it("a config link loads its state: 'Preset loaded from shared link!'", async () => {
    expect(await openSharedPreset({ kind: "config", value: encodeConfig(sample()) }, noFetch)).toEqual({ ok: true, state: sample(), message: PRESET_MESSAGES.loadedFromLink });
  });

  it("a bad config: 'Failed to load shared preset', whatever is wrong with it", async () => {
    for (const value of ["", "not base64!", "e30", btoa("{nope"), btoa(JSON.stringify({ ...sample(), channels: false }))]) {
      expect(await openSharedPreset({ kind: "config", value }, noFetch)).toEqual({ ok: false, message: "Failed to load shared preset" });
    }
  });

  it("an id: GET /api/presets/{id} and 'Preset loaded successfully!' with the validated data", async () => {
    const f = fakeFetch(() => [200, { id: "a b", name: "n", data: { ...sample(), effects: { ...sample().effects, bogus: { enabled: true, value: 1 } } } }]);
    expect(await openSharedPreset({ kind: "id", id: "a b" }, f.impl)).toEqual({ ok: true, state: sample(), message: "Preset loaded successfully!" });
    expect(f.calls[0]).toMatchObject({ method: "GET", url: "/api/presets/a%20b" });
  });

  it("404, 400, or a preset without data: 'This preset has expired or was not found'", async () => {
    for (const out of [[404, { error: "x" }], [400, { error: "Invalid preset id" }], [200, { id: "x", name: "n" }], [200, { id: "x", data: null }]] as const) {
      expect(await openSharedPreset({ kind: "id", id: "x" }, fakeFetch(() => out as never).impl)).toEqual({ ok: false, message: "This preset has expired or was not found" });
    }
  });

  it("invalid data, a server error or no answer: 'Failed to load preset'", async () => {
    for (const out of [[200, { data: { channels: [], effects: {}, duration: 30 } }], [500, { error: "boom" }], [503, "not json"], "network"] as const) {
      expect(await openSharedPreset({ kind: "id", id: "x" }, fakeFetch(() => out as never).impl)).toEqual({ ok: false, message: "Failed to load preset" });
    }
  });
});

describe("loading into the studio store", () => {
  it("load() stops playback and replaces channels, effects and duration", () => {
    const store = createStudioStore();
    store.getState().setPlaying(true);
    store.getState().load(sample());
    // The preset's format version is the preset's, not the studio's.
    const { version: _version, ...loaded } = sample() as ReturnType<typeof sample> & { version?: number };
    expect(store.getState()).toMatchObject({ ...loaded, isPlaying: false });
  });

  it("a preset opened while signed out comes back with its own frequencies once the gate opens", () => {
    const store = createStudioStore();
    store.getState().load(sample());
    const anonymous = studioGate("anonymous", ANONYMOUS);
    const { patch, forced } = gatePatch(store.getState(), anonymous);
    store.setState(patch!);
    expect(store.getState().channels.every((c) => !c.enabled && c.frequency === 0)).toBe(true);
    const pro = studioGate("signed_in", { ...ANONYMOUS, signedIn: true, hasActiveSubscription: true, hasUnlimitedAccess: true });
    store.setState(unlockPatch(store.getState(), pro, new Set(forced))!);
    expect(store.getState().channels.map((c) => c.frequency)).toEqual([432, 528, 7.83, 741]);
  });
});
