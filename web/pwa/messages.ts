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
