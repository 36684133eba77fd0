// Where the session lives in the browser (spec/accounts.md section 3): the token under auth_token
// and, for older readers (video export, the billing widgets), under token, authToken and
// jwt_token too; the signed-in user as JSON under user_data. Every function takes the Storage it
// works on, so unit tests pass an in-memory stub instead of window.localStorage.

import type { PublicUser } from "./api";

export const TOKEN_KEY = "auth_token";
/** Every key a token is written under; auth_token is the one read first. */
export const TOKEN_KEYS = [TOKEN_KEY, "token", "authToken", "jwt_token"] as const;
export const USER_KEY = "user_data";
/** The admin override mirrored from the server ('true' or 'false'; spec 3 storage keys). */
export const OVERRIDE_KEY = "adminOverride";
/** Everything a sign-out or a failed session restore removes (with ENTITLEMENT_KEY). */
export const SESSION_KEYS = [...TOKEN_KEYS, USER_KEY] as const;
/** The signed-in user's entitlement kept for offline use (entitlement-cache.ts). */
export const ENTITLEMENT_KEY = "tone-studio:entitlement";

export type KeyValueStorage = Pick<Storage, "getItem" | "setItem" | "removeItem">;

export function saveSession(storage: KeyValueStorage, token: string, user: PublicUser | null): void {
  for (const key of TOKEN_KEYS) storage.setItem(key, token);
  if (user) storage.setItem(USER_KEY, JSON.stringify(user));
}

export function clearSession(storage: KeyValueStorage): void {
  for (const key of SESSION_KEYS) storage.removeItem(key);
  storage.removeItem(ENTITLEMENT_KEY);
}

/** The stored token: auth_token first, then the other keys older code may have written. */
export function readToken(storage: KeyValueStorage): string | null {
  for (const key of TOKEN_KEYS) {
    const v = storage.getItem(key);
    if (v) return v;
  }
  return null;
}

/** The cached user (shown while the profile is being fetched); null when absent or unreadable. */
export function readUser(storage: KeyValueStorage): PublicUser | null {
  const raw = storage.getItem(USER_KEY);
  if (!raw) return null;
  try {
    const v = JSON.parse(raw) as unknown;
    return v && typeof v === "object" && typeof (v as PublicUser).email === "string" ? (v as PublicUser) : null;
  } catch {
    return null;
  }
}

/** window.localStorage when it exists and works (private modes can throw), else memory. */
export function browserStorage(): KeyValueStorage {
  try {
    if (typeof localStorage !== "undefined") {
      localStorage.getItem(TOKEN_KEY);
      return localStorage;
    }
  } catch {
    // fall through to memory
  }
  return memoryStorage();
}

export function memoryStorage(): KeyValueStorage & { readonly size: number } {
  const map = new Map<string, string>();
  return {
    getItem: (k) => map.get(k) ?? null,
    setItem: (k, v) => void map.set(k, String(v)),
    removeItem: (k) => void map.delete(k),
    get size() {
      return map.size;
    },
  };
}
