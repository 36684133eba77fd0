// The marketplace calls of the web app (api/routes/marketplace.ts lists the routes): JSON through
// requestJson (bearer token, the server's `error` text on failure). The upload is multipart with
// progress and lives in upload-request.ts.

import type { PurchaseAnswer, SoundDto } from "../../api/rules/marketplace";
import { requestJson, type RequestOptions } from "../account/api";

export type MarketplaceSound = SoundDto;
export type { PurchaseAnswer };

/** A sound the signed-in user owns (GET /api/marketplace/purchases). */
export interface OwnedSound extends SoundDto {
  purchasedAt: string;
  /** The owner's own rating, null until they rate. */
  myRating: number | null;
}

type Deps = Pick<RequestOptions, "fetchImpl" | "signal">;

const soundPath = (id: string) => `/api/marketplace/sounds/${encodeURIComponent(id)}`;

export async function fetchSounds(deps: Deps = {}): Promise<MarketplaceSound[]> {
  const { sounds } = await requestJson<{ sounds?: MarketplaceSound[] }>("/api/marketplace/sounds", deps);
  return Array.isArray(sounds) ? sounds : [];
}

export async function fetchOwnedSounds(token: string, deps: Deps = {}): Promise<OwnedSound[]> {
  const { sounds } = await requestJson<{ sounds?: OwnedSound[] }>("/api/marketplace/purchases", { ...deps, token });
  return Array.isArray(sounds) ? sounds : [];
}

export function purchaseSound(id: string, token: string, deps: Deps = {}): Promise<PurchaseAnswer> {
  return requestJson<PurchaseAnswer>(`/api/marketplace/purchase/${encodeURIComponent(id)}`, { ...deps, method: "POST", token });
}

/** A 10-minute link that downloads the full file (a plain navigation streams it to disk). */
export async function downloadLink(id: string, token: string, deps: Deps = {}): Promise<string> {
  const { url } = await requestJson<{ url?: string }>(`${soundPath(id)}/download-link`, { ...deps, method: "POST", token });
  if (!url) throw new Error("No download link was returned");
  return url;
}

export async function rateSound(id: string, rating: number, token: string, deps: Deps = {}): Promise<MarketplaceSound> {
  const { sound } = await requestJson<{ sound: MarketplaceSound }>(`${soundPath(id)}/rating`, { ...deps, body: { rating }, token });
  return sound;
}
