// The studio's Upload to Store, the parts without React or a browser (spec/studio.md sections 3,
// 5 and 8): the checks in the spec's order, the frequencies field (the enabled channels and a
// summary such as "432 Hz + 528 Hz") and the duration field, the studio's duration rounded up to
// whole minutes. The studio allows 30 s to 12 h; the marketplace takes 1 to 59 minutes, so a
// longer studio duration is refused before anything is rendered.

import { MARKETPLACE_TEXT as T, UPLOAD_MAX_MINUTES, parsePriceCents } from "../../api/rules/marketplace";
import { hasAudibleChannel, type ChannelState } from "../../dsp/host/schema/state";
import { validateUploadFields, type UploadFields } from "./upload-form";

export interface StudioUploadChannel {
  frequency: number;
  volume: number;
  waveform: string;
}

export interface FrequenciesField {
  channels: StudioUploadChannel[];
  summary: string;
}

/** "432 Hz", "136.1 Hz": at most 2 decimals, no trailing zeros. */
export function formatHz(frequency: number): string {
  return `${Number(frequency.toFixed(2))} Hz`;
}

/** The channels that sound (enabled, above 0 Hz) with the summary of their frequencies. */
export function frequenciesField(channels: readonly ChannelState[]): FrequenciesField {
  const sounding = channels.filter((c) => c.enabled && c.frequency > 0);
  return {
    channels: sounding.map(({ frequency, volume, waveform }) => ({ frequency, volume, waveform })),
    summary: sounding.map((c) => formatHz(c.frequency)).join(" + "),
  };
}

/** The upload's duration field: whole minutes, rounded up (30 s is 1 minute). */
export function uploadMinutes(seconds: number): number {
  return Math.max(1, Math.ceil(seconds / 60));
}

export interface StudioUploadInput {
  /** The dialog's fields (the duration comes from the studio). */
  fields: Omit<UploadFields, "minutes">;
  signedIn: boolean;
  channels: readonly ChannelState[];
  /** Seconds the studio would render. */
  duration: number;
}

/** The first refusal's text, or null: title and price, the price, the session, a sounding
 *  channel, the length, then the rules both upload forms share (the paid minimum, lengths). */
export function checkStudioUpload(u: StudioUploadInput): string | null {
  if (!u.fields.title.trim() || !u.fields.price.trim()) return T.fieldsMissing;
  if (parsePriceCents(u.fields.price) === null) return T.priceInvalid;
  if (!u.signedIn) return T.loginToUpload;
  if (!hasAudibleChannel({ channels: [...u.channels] })) return T.uploadNeedsChannel;
  if (!(u.duration >= 1) || uploadMinutes(u.duration) > UPLOAD_MAX_MINUTES) return T.uploadTooLong;
  return validateUploadFields({ ...u.fields, minutes: String(uploadMinutes(u.duration)) }, true);
}
