// The 'marketplace-refresh' window event (spec/studio.md section 8): fired after an upload, a
// purchase or a rating; the marketplace's lists reload when they hear it, wherever it came from
// (the studio's Upload to Store, the admin form, My sounds).

export const MARKETPLACE_REFRESH_EVENT = "marketplace-refresh";

export function requestMarketplaceRefresh(target: EventTarget = window): void {
  target.dispatchEvent(new Event(MARKETPLACE_REFRESH_EVENT));
}

/** Calls `fn` on every refresh event; returns the unsubscribe. */
export function onMarketplaceRefresh(fn: () => void, target: EventTarget = window): () => void {
  target.addEventListener(MARKETPLACE_REFRESH_EVENT, fn);
  return () => target.removeEventListener(MARKETPLACE_REFRESH_EVENT, fn);
}
