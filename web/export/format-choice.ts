// The export format a user picked beside Export WAV, remembered per user on this device
// (localStorage, one key per account id, "anonymous" before sign-in) and read back through a zod
// schema, so a stored value from an older build or another format list falls back to WAV 16-bit.
// Which formats this browser offers: WAV and FLAC everywhere (the engine's PCM; libFLAC in
// WebAssembly), MP3 everywhere at a constant bitrate or LAME's VBR presets V0, V2 and V5 (LAME in
// WebAssembly; the command line offers every V0-V9), Opus where WebCodecs encodes it
// (AudioEncoder.isConfigSupported: Chromium and Firefox; Safari only where it added Opus).

import { z } from "zod";
import { DEFAULT_MP3_KBPS, DEFAULT_OPUS_KBPS, EXPORT_FORMAT_IDS, MP3_CBR_KBPS, type ExportSettings } from "../../dsp/host/export/formats";

const KEY_PREFIX = "tone-studio:export-format:";

const settingsSchema = z.object({
  format: z.enum(EXPORT_FORMAT_IDS as [ExportSettings["format"], ...ExportSettings["format"][]]),
  mp3Kbps: z.number().int().refine((k) => (MP3_CBR_KBPS as readonly number[]).includes(k)).optional(),
  mp3Vbr: z.number().int().refine((q) => (STUDIO_MP3_VBR as readonly number[]).includes(q)).optional(),
});

/** LAME's VBR presets the studio offers: V0 (about 245 kbps), V2 (about 190, LAME's "standard")
 *  and V5 (about 130), as audio editors name them extreme, standard and medium. */
export const STUDIO_MP3_VBR = [0, 2, 5] as const;

/** What the choice stores: the format and, for MP3, its bitrate or VBR quality (mp3Vbr wins). */
export interface FormatChoice {
  format: ExportSettings["format"];
  mp3Kbps?: number;
  mp3Vbr?: number;
}

export const DEFAULT_CHOICE: FormatChoice = { format: "wav16" };

function storage(): Storage | null {
  try {
    return typeof localStorage === "undefined" ? null : localStorage;
  } catch {
    return null; // storage refused (a sandboxed frame, Safari's strictest settings)
  }
}

export function readChoice(userId: string | null | undefined): FormatChoice {
  const raw = storage()?.getItem(KEY_PREFIX + (userId ?? "anonymous"));
  if (!raw) return DEFAULT_CHOICE;
  try {
    const parsed = settingsSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : DEFAULT_CHOICE;
  } catch {
    return DEFAULT_CHOICE;
  }
}

export function writeChoice(userId: string | null | undefined, choice: FormatChoice): void {
  try {
    storage()?.setItem(KEY_PREFIX + (userId ?? "anonymous"), JSON.stringify(choice));
  } catch {
    // Full or refused storage: the choice lasts for this page only.
  }
}

/** The encoder's settings for a choice. */
export function settingsOf(choice: FormatChoice): ExportSettings {
  if (choice.format === "mp3") {
    return { format: "mp3", mp3: choice.mp3Vbr !== undefined ? { kind: "vbr", quality: choice.mp3Vbr } : { kind: "cbr", kbps: choice.mp3Kbps ?? DEFAULT_MP3_KBPS } };
  }
  if (choice.format === "opus") return { format: "opus", opusKbps: DEFAULT_OPUS_KBPS };
  return { format: choice.format };
}

/** True when this browser's WebCodecs encodes stereo Opus at 48 kHz (checked once). */
let opusSupport: Promise<boolean> | null = null;
export function browserEncodesOpus(): Promise<boolean> {
  opusSupport ??= (async () => {
    if (typeof AudioEncoder === "undefined") return false;
    try {
      const r = await AudioEncoder.isConfigSupported({ codec: "opus", sampleRate: 48000, numberOfChannels: 2, bitrate: DEFAULT_OPUS_KBPS * 1000 });
      return r.supported === true;
    } catch {
      return false;
    }
  })();
  return opusSupport;
}
