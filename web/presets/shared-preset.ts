// Sharing and opening presets without React (spec/studio.md sections 2, 5, 7 and 8):
//  - sharePreset: POST /api/presets/user {name, data} with the session's bearer -> the id; the
//    link is `${origin}/preset/{id}`.
//  - presetRequest: what a studio URL asks to load: the ?config= parameter (an encoded state) wins,
//    otherwise the /preset/{id} path.
//  - openSharedPreset: the state to load and the toast to show, or the failure toast. A config is
//    decoded and a fetched preset validated by THE preset schema (dsp/host/schema/preset.ts), the same one
//    the API stores with. Never throws.

import { EFFECTS } from "../../dsp/host/model/catalogue";
import { decodeConfig, parsePreset, presetData, type PresetData } from "../../dsp/host/schema/preset";
import { ApiRequestError, requestJson } from "../account/api";
import { PRESET_MESSAGES } from "./messages";

export type PresetRequest = { kind: "config"; value: string } | { kind: "id"; id: string };

export type OpenOutcome = { ok: true; state: PresetData; message: string } | { ok: false; message: string };

/** The name a shared preset is stored under: its sounding channels and effects. */
export function presetName(state: PresetData): string {
  const hz = state.channels.filter((c) => c.enabled && c.frequency > 0).map((c) => String(c.frequency));
  const fx = EFFECTS.filter((d) => state.effects[d.id]?.enabled).map((d) => d.name);
  const name = [hz.length > 0 ? `${hz.join(" + ")} Hz` : "Silence", ...fx].join(", ");
  return name.length > 100 ? `${name.slice(0, 99)}…` : name;
}

export function presetUrl(origin: string, id: string): string {
  return `${origin}/preset/${encodeURIComponent(id)}`;
}

/** Stores the state as a shared preset; resolves with its id. */
export async function sharePreset(state: PresetData, token: string | null, fetchImpl?: typeof fetch): Promise<string> {
  const answer = await requestJson<{ id?: unknown }>("/api/presets/user", {
    body: { name: presetName(state), data: presetData(state) },
    token,
    fetchImpl,
  });
  if (typeof answer.id !== "string" || answer.id === "") throw new Error("The server answered without a preset id");
  return answer.id;
}

export function presetRequest(search: string, id: string | undefined): PresetRequest | null {
  const config = new URLSearchParams(search).get("config");
  if (config !== null) return { kind: "config", value: config };
  return id ? { kind: "id", id } : null;
}

export async function openSharedPreset(request: PresetRequest, fetchImpl?: typeof fetch): Promise<OpenOutcome> {
  if (request.kind === "config") {
    const decoded = decodeConfig(request.value);
    if (decoded.ok) return { ok: true, state: decoded.state, message: PRESET_MESSAGES.loadedFromLink };
    console.warn(`Shared preset link not loaded: ${decoded.error}`);
    return { ok: false, message: PRESET_MESSAGES.linkFailed };
  }
  try {
    const answer = await requestJson<{ data?: unknown }>(`/api/presets/${encodeURIComponent(request.id)}`, { fetchImpl });
    // Spec 5: a preset without data counts as not found or expired.
    if (!answer.data) return { ok: false, message: PRESET_MESSAGES.notFound };
    const parsed = parsePreset(answer.data);
    if (parsed.ok) return { ok: true, state: parsed.state, message: PRESET_MESSAGES.loaded };
    console.warn(`Preset ${request.id} not loaded: ${parsed.error}`);
    return { ok: false, message: PRESET_MESSAGES.loadFailed };
  } catch (err) {
    // 404, and 400 for an id that cannot exist: the preset is not there.
    if (err instanceof ApiRequestError && (err.status === 404 || err.status === 400)) return { ok: false, message: PRESET_MESSAGES.notFound };
    console.warn(`Preset ${request.id} not loaded:`, err);
    return { ok: false, message: PRESET_MESSAGES.loadFailed };
  }
}
