// The service worker's texts and its one message: the page's update prompt asks a waiting (newly
// installed) worker to take over.

export const SKIP_WAITING = { type: "SKIP_WAITING" } as const;

export function isSkipWaiting(data: unknown): boolean {
  return typeof data === "object" && data !== null && (data as { type?: unknown }).type === SKIP_WAITING.type;
}

export const PWA_TEXT = {
  updateReady: "A new version of Tone Studio is ready.",
  reload: "Reload",
} as const;
