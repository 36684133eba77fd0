// Every export format in one place: its id, name, file extension, MIME type, how its samples are
// made (16-bit or 24-bit PCM from the engine, or the float output), its size per second, and the
// exact words for a file name no format answers. The CLI, the studio's export and the docs all
// read this module, so a new format is added here once. No I/O and no encoder here
// (encoders.ts, ffmpeg-encoder.ts).
//
// Sizes per second are what a user is told before an export: exact for WAV and CBR MP3 (plus
// headers), the bitrate for Opus (Ogg pages add about 1 %), and for FLAC and VBR MP3 the figures
// measured on the studio's tones (bench/export-formats.ts; noise compresses less, so FLAC of a
// noise-heavy session is larger).

export type ExportFormatId = "wav16" | "wav24" | "flac16" | "flac24" | "mp3" | "opus";

/** How an MP3 spends its bits: a constant bitrate, or LAME's VBR quality (0 best, 9 smallest). */
export type Mp3Mode = { kind: "cbr"; kbps: number } | { kind: "vbr"; quality: number };

export interface ExportSettings {
  format: ExportFormatId;
  /** MP3 only (default: CBR at DEFAULT_MP3_KBPS). */
  mp3?: Mp3Mode;
  /** Opus only (default: DEFAULT_OPUS_KBPS). */
  opusKbps?: number;
  /** 24-bit only: TPDF dither at 24 bits (default) or plain rounding. 16-bit is always dithered. */
  dither?: boolean;
  /** MP3 only: LAME's algorithm quality, 0 (slowest, best) to 9 (default DEFAULT_MP3_QUALITY). */
  mp3Quality?: number;
  /** FLAC only: the compression level, 0 (quickest) to 8 (smallest); lossless at every level. */
  flacLevel?: number;
}

export interface ExportFormat {
  id: ExportFormatId;
  /** The name in menus and messages. */
  label: string;
  /** The kind of file in a button or toast: "Export FLAC", "MP3 saved: ...". */
  kind: "WAV" | "FLAC" | "MP3" | "Opus";
  /** The file name's extension, with its dot. */
  extension: ".wav" | ".flac" | ".mp3" | ".opus";
  mimeType: string;
  /** The samples the encoder is given: the engine's dithered PCM, or its float output. */
  pcm: "s16" | "s24" | "f32";
  lossless: boolean;
}

export const EXPORT_FORMATS: Readonly<Record<ExportFormatId, ExportFormat>> = {
  wav16: { id: "wav16", kind: "WAV", label: "WAV 16-bit", extension: ".wav", mimeType: "audio/wav", pcm: "s16", lossless: true },
  wav24: { id: "wav24", kind: "WAV", label: "WAV 24-bit", extension: ".wav", mimeType: "audio/wav", pcm: "s24", lossless: true },
  flac16: { id: "flac16", kind: "FLAC", label: "FLAC 16-bit", extension: ".flac", mimeType: "audio/flac", pcm: "s16", lossless: true },
  flac24: { id: "flac24", kind: "FLAC", label: "FLAC 24-bit", extension: ".flac", mimeType: "audio/flac", pcm: "s24", lossless: true },
  mp3: { id: "mp3", kind: "MP3", label: "MP3", extension: ".mp3", mimeType: "audio/mpeg", pcm: "s16", lossless: false },
  opus: { id: "opus", kind: "Opus", label: "Opus", extension: ".opus", mimeType: "audio/ogg; codecs=opus", pcm: "f32", lossless: false },
};

export const EXPORT_FORMAT_IDS = Object.keys(EXPORT_FORMATS) as ExportFormatId[];

/** The bitrates an MPEG-1 Layer III stream at 48 kHz can hold from 128 kbps up. */
export const MP3_CBR_KBPS = [128, 160, 192, 224, 256, 320] as const;
export const DEFAULT_MP3_KBPS = 320;
export const MP3_VBR_QUALITIES = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9] as const;
/** LAME's average bitrates of its VBR presets V0-V9 (LAME's documentation, 44.1/48 kHz stereo). */
const MP3_VBR_AVERAGE_KBPS = [245, 225, 190, 175, 165, 130, 115, 100, 85, 65];
/** LAME's documented average bitrate of VBR quality `quality` (V0-V9): music's, a pure tone takes less. */
export function mp3VbrAverageKbps(quality: number): number {
  return MP3_VBR_AVERAGE_KBPS[quality];
}
/** LAME's quality 5 ("good speed, reasonable quality"): at 160 kbps and more, tones keep their
 *  frequency and level and no spur reaches -60 dB (tests/unit/scripts/render-formats.test.ts),
 *  at twice the speed of quality 2 (docs/performance.md). */
export const DEFAULT_MP3_QUALITY = 5;
/** libFLAC's and ffmpeg's default level. */
export const DEFAULT_FLAC_LEVEL = 5;
export const OPUS_MIN_KBPS = 32;
export const OPUS_MAX_KBPS = 510;
export const DEFAULT_OPUS_KBPS = 160;

/** FLAC's size against the same WAV for the studio's tone sessions (bench/export-formats.ts). */
const FLAC_RATIO: Record<16 | 24, number> = { 16: 0.42, 24: 0.62 };

const SAMPLE_RATE = 48000;
const CHANNELS = 2;

/** Bytes of the file per second of audio (an estimate for FLAC, VBR MP3 and Opus). */
export function bytesPerSecond(settings: ExportSettings): number {
  switch (settings.format) {
    case "wav16":
      return SAMPLE_RATE * CHANNELS * 2;
    case "wav24":
      return SAMPLE_RATE * CHANNELS * 3;
    case "flac16":
      return SAMPLE_RATE * CHANNELS * 2 * FLAC_RATIO[16];
    case "flac24":
      return SAMPLE_RATE * CHANNELS * 3 * FLAC_RATIO[24];
    case "mp3": {
      const mode = settings.mp3 ?? { kind: "cbr", kbps: DEFAULT_MP3_KBPS };
      return ((mode.kind === "cbr" ? mode.kbps : MP3_VBR_AVERAGE_KBPS[mode.quality]) * 1000) / 8;
    }
    case "opus":
      return ((settings.opusKbps ?? DEFAULT_OPUS_KBPS) * 1000 * 1.01) / 8;
  }
}

/** The size estimate of a whole export, in bytes. */
export function estimatedBytes(settings: ExportSettings, seconds: number): number {
  return Math.round(bytesPerSecond(settings) * seconds);
}

/** A file's size for people: "5.5 MB", "1.2 GB" (decimal units, as file managers show them). */
export function formatFileSize(bytes: number): string {
  if (bytes >= 1e9) return `${(bytes / 1e9).toFixed(1)} GB`;
  if (bytes >= 1e6) return `${(bytes / 1e6).toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1e3))} kB`;
}

/** The settings in words: "FLAC 24-bit", "MP3 320 kbps", "MP3 VBR V2", "Opus 160 kbps". */
export function describeSettings(settings: ExportSettings): string {
  const f = EXPORT_FORMATS[settings.format];
  if (settings.format === "mp3") {
    const mode = settings.mp3 ?? { kind: "cbr", kbps: DEFAULT_MP3_KBPS };
    return mode.kind === "cbr" ? `MP3 ${mode.kbps} kbps` : `MP3 VBR V${mode.quality}`;
  }
  if (settings.format === "opus") return `Opus ${settings.opusKbps ?? DEFAULT_OPUS_KBPS} kbps`;
  return f.label;
}

/** The extensions an export can be written as, in the order the error message names them. */
export const EXPORT_EXTENSIONS = [".wav", ".flac", ".mp3", ".opus"] as const;

/** The exact message for a file name whose extension names no export format. */
export function unknownExtensionMessage(fileName: string): string {
  const dot = fileName.lastIndexOf(".");
  const slash = Math.max(fileName.lastIndexOf("/"), fileName.lastIndexOf("\\"));
  const ext = dot > slash + 1 ? fileName.slice(dot) : "";
  const what = ext ? `Unknown file type "${ext}"` : `No file type in "${fileName}"`;
  return `${what}: the export formats are .wav, .flac, .mp3 and .opus.`;
}

export class UnknownFormatError extends Error {
  constructor(readonly fileName: string) {
    super(unknownExtensionMessage(fileName));
  }
}

/** The format a file name asks for by its extension (case-insensitive); `bits` picks 16 or 24
 *  for WAV and FLAC. Throws UnknownFormatError for any other extension. */
export function formatForFile(fileName: string, bits: 16 | 24 = 16): ExportFormatId {
  const lower = fileName.toLowerCase();
  if (lower.endsWith(".wav")) return bits === 24 ? "wav24" : "wav16";
  if (lower.endsWith(".flac")) return bits === 24 ? "flac24" : "flac16";
  if (lower.endsWith(".mp3")) return "mp3";
  if (lower.endsWith(".opus")) return "opus";
  throw new UnknownFormatError(fileName);
}

/** The bit depth of a PCM format (WAV, FLAC), or null for the lossy ones. */
export function bitsOf(format: ExportFormatId): 16 | 24 | null {
  const pcm = EXPORT_FORMATS[format].pcm;
  if (!EXPORT_FORMATS[format].lossless) return null;
  return pcm === "s24" ? 24 : 16;
}

/** `name` with its extension replaced by the format's (the studio's download name). */
export function fileNameFor(name: string, format: ExportFormatId): string {
  const base = name.replace(/\.(wav|flac|mp3|opus)$/i, "");
  return base + EXPORT_FORMATS[format].extension;
}
