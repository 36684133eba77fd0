// The sound marketplace's rules and texts (spec/accounts.md sections 2, 4, 5, 7, 8 and 9;
// spec/studio.md sections 5 and 8), in one dependency-free module that the API, the marketplace
// page and the studio's Upload to Store all import.

/** Category tabs of /marketplace, in the spec's order ('All' shows every category). */
export const MARKETPLACE_TABS = ["All", "Binaural", "Isochronic", "Ambient", "Healing", "Focus", "Sleep", "Meditation"] as const;
export type MarketplaceTab = (typeof MARKETPLACE_TABS)[number];
/** Categories a sound can have (every tab but 'All'). */
export const SOUND_CATEGORIES = MARKETPLACE_TABS.filter((t): t is Exclude<MarketplaceTab, "All"> => t !== "All");
export type SoundCategory = (typeof SOUND_CATEGORIES)[number];
/** The studio's upload form offers these (spec/studio.md section 5). */
export const STUDIO_UPLOAD_CATEGORIES = ["Focus", "Sleep", "Meditation", "Healing", "Binaural", "Ambient"] as const satisfies readonly SoundCategory[];

/** Upload duration field: whole minutes (spec: 1 to 59). */
export const UPLOAD_MIN_MINUTES = 1;
export const UPLOAD_MAX_MINUTES = 59;
/** Prices are USD decimals in the form, integer cents when stored. */
export const PRICE_MAX_CENTS = 100_000_00; // $100,000: far above any sound, below any overflow
/** Card payments have a floor; a paid sound must cost at least this (0 = free is allowed). */
export const PRICE_MIN_PAID_CENTS = 50;
export const TITLE_MAX = 120;
export const DESCRIPTION_MAX = 2000;
export const SPECS_MAX = 2000;
export const TAGS_MAX = 20;
export const TAG_MAX_CHARS = 32;
/** Cards show at most this many tags (spec 9). */
export const CARD_TAGS = 3;
/** Preview playback volume (spec 4 and 9). */
export const PREVIEW_VOLUME = 0.5;
/** What a visitor can preview of a sound without owning it: its first 30 seconds. */
export const PREVIEW_SECONDS = 30;
/** Default largest upload (bytes); MARKETPLACE_MAX_UPLOAD_BYTES changes it. */
export const DEFAULT_MAX_UPLOAD_BYTES = 1024 * 1024 * 1024;
/** Uploads per account per hour (429 beyond). */
export const UPLOADS_PER_HOUR = 30;
export const RATING_MIN = 1;
export const RATING_MAX = 5;

/** Audio formats accepted, by the content's magic bytes (never the name or the declared type). */
export const AUDIO_FORMATS = {
  wav: { mime: "audio/wav", ext: "wav" },
  mp3: { mime: "audio/mpeg", ext: "mp3" },
  flac: { mime: "audio/flac", ext: "flac" },
  ogg: { mime: "audio/ogg", ext: "ogg" },
} as const;
export type AudioFormat = keyof typeof AUDIO_FORMATS;

/** '$4.99' style: cents / 100 with 2 decimals (spec 9). */
export function formatPrice(cents: number): string {
  return (cents / 100).toFixed(2);
}

/** 'm:ss' (spec 2: duration as minutes:seconds). */
export function formatSoundDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** A price field (USD decimal) as integer cents; null when it is not a number of 0 or higher
 *  with at most 2 decimals. */
export function parsePriceCents(text: string): number | null {
  const t = text.trim();
  if (!/^\d+(\.\d{1,2})?$|^\.\d{1,2}$/.test(t)) return null;
  const cents = Math.round(Number(t) * 100);
  return Number.isSafeInteger(cents) && cents <= PRICE_MAX_CENTS ? cents : null;
}

/** The tags field: a comma list, trimmed, empty ones and repeats dropped. */
export function parseTags(text: string): string[] {
  return text
    .split(",")
    .map((t) => t.trim().slice(0, TAG_MAX_CHARS))
    .filter((t, i, all) => t !== "" && all.findIndex((u) => u.toLowerCase() === t.toLowerCase()) === i)
    .slice(0, TAGS_MAX);
}

/** Texts of the marketplace that the API answers with and the web app shows (spec/accounts.md
 *  section 8 and spec/studio.md section 8, verbatim where quoted there). */
export const MARKETPLACE_TEXT = {
  loadFailed: "Failed to load marketplace",
  empty: "No sounds found in this category",
  playFailed: "Failed to play audio",
  loginToPurchase: "Please login to purchase",
  purchaseFailed: "Purchase failed",
  initiateFailed: "Failed to initiate purchase",
  alreadyOwned: "You already own this sound!",
  uploadFailed: "Upload failed",
  uploaded: "Sound uploaded successfully!",
  // the studio's Upload to Store (spec/studio.md section 8)
  fieldsMissing: "Please fill in all required fields",
  priceInvalid: "Please enter a valid price (0 or higher)",
  loginToUpload: "Please log in to upload to marketplace",
  uploadAuthFailed: "Authentication failed. Please log in again.",
  uploadRateLimited: "Upload rate limit exceeded. Please wait and try again.",
  uploadNeedsChannel: "Please enable at least one frequency before uploading",
  uploadedToMarketplace: "Sound uploaded to marketplace successfully!",
  uploadNetwork: "Upload failed - network error",
  uploadHttp: (status: number, text: string) => `Upload failed: ${status} ${text}`,
  // filling the spec's gaps, in the same voice
  priceBelowMinimum: `Paid sounds must cost at least $${formatPrice(PRICE_MIN_PAID_CENTS)} (the card processor's minimum). Use 0 for a free sound.`,
  durationInvalid: `Please enter a duration of ${UPLOAD_MIN_MINUTES} to ${UPLOAD_MAX_MINUTES} minutes`,
  categoryInvalid: "Please choose one of the listed categories",
  titleTooLong: `The title can be at most ${TITLE_MAX} characters long`,
  descriptionTooLong: `The description can be at most ${DESCRIPTION_MAX} characters long`,
  specsTooLong: `The specs can be at most ${SPECS_MAX} characters long`,
  frequenciesInvalid: "The frequencies field must be JSON describing the channels",
  notAudio: "The file must be a WAV, MP3, FLAC or OGG audio file",
  unreadableAudio: "The audio file could not be read",
  tooLarge: (maxBytes: number) => `The file is too large (at most ${Math.round(maxBytes / (1024 * 1024))} MB)`,
  adminOnly: "Only administrators can upload sounds",
  soundNotFound: "Sound not found",
  notOwned: "Buy this sound to download it",
  loginToDownload: "Please log in to download your sounds",
  linkExpired: "This download link has expired. Please download again from My sounds.",
  ratingInvalid: `Please rate from ${RATING_MIN} to ${RATING_MAX} stars`,
  ratingNeedsPurchase: "Only owners can rate this sound",
  alreadyRated: "You have already rated this sound",
  purchaseRecorded: "Thank you! The sound is now in My sounds.",
  uploadTooLong: `Marketplace sounds can be at most ${UPLOAD_MAX_MINUTES} minutes long. Set the duration to 00:${UPLOAD_MAX_MINUTES}:00 or less before uploading.`,
  ownedLoadFailed: "Failed to load your sounds",
  downloadFailed: "Download failed. Please try again.",
  rated: "Thanks for rating this sound!",
  ratingFailed: "Your rating could not be saved. Please try again.",
  purchaseUnconfirmed: "We could not confirm your purchase yet. It will appear in My sounds once the payment is confirmed.",
  /** A second checkout paid for a sound already owned (two tabs): its payment is given back. */
  duplicateRefunded: "You already own this sound, so this second payment has been refunded.",
} as const;

// ---- what the marketplace routes answer ------------------------------------------------------

/** A sound as the API answers it (spec/accounts.md section 7). */
export interface SoundDto {
  id: string;
  title: string;
  description: string;
  /** Integer cents. */
  price: number;
  /** Seconds, read from the file. */
  duration: number;
  category: string;
  downloads: number;
  /** Average of the owners' ratings, one decimal; 0 when nobody rated yet. */
  rating: number;
  ratingCount: number;
  /** The preview stream (first 30 s, range requests). */
  fileUrl: string;
  metadata: { tags: string[]; specs?: string; frequencies?: unknown };
  createdAt: string;
}

export interface PurchaseAnswer {
  success: boolean;
  alreadyPurchased: boolean;
  checkoutUrl: string | null;
}
