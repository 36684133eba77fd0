// The installed app's texts, and the service worker's one message: the page's update prompt asks a waiting (newly
// installed) worker to take over.

export const SKIP_WAITING = { type: "SKIP_WAITING" } as const;

export function isSkipWaiting(data: unknown): boolean {
  return typeof data === "object" && data !== null && (data as { type?: unknown }).type === SKIP_WAITING.type;
}

export const PWA_TEXT = {
  updateReady: "A new version of Tone Studio is ready.",
  reload: "Reload",
  /** Offline, when the Pro access kept on this device has expired (web/account/entitlement-cache.ts). */
  offlineLapsed: "You're offline, and your Pro access needs to be confirmed again. Connect to the internet to unlock Pro.",
} as const;

/** The soundtrack decoders' chunks (dsp/host/soundtrack/decode.ts loads them on demand): left out of
 *  the precache (vite.config.ts SOUNDTRACK_DECODER_CHUNKS) and cached the first time they load. */
export const SOUNDTRACK_DECODER_CHUNKS = ["libsamplerate", "flac", "ogg-vorbis", "mpg123-decoder", "codec-parser"] as const;
export const DECODER_CACHE = "soundtrack-decoders";
const DECODER_PATH = new RegExp(`^/assets/(${SOUNDTRACK_DECODER_CHUNKS.join("|")})-[\\w-]+\\.js$`);

export function isSoundtrackDecoder(pathname: string): boolean {
  return DECODER_PATH.test(pathname);
}
