// The signed-in user's entitlement kept on the device for offline use (the installed studio with
// no network): the last profile the server answered, when it was checked and until when it may
// stand in for the server. It lives in the app's storage (localStorage, beside the session it
// belongs to, cleared with it), never in the service worker's Cache Storage, and is written only
// from a profile fetched with a session token: an anonymous visitor has none.
//
// A cached entitlement expires at the earlier of
// - OFFLINE_TRUST_MS after the server last confirmed it (the studio must get online again to keep
//   Pro offline longer), and
// - the end of the paid access it shows (a subscription's period end, a temporary grant's end;
//   the latest of them when there are several, none for an admin's override);
// and it is no good before the time it was checked (a clock set back). An expired, unreadable or
// other user's entry counts as none: the session stays signed in, at the free level, until the
// server answers again. This is display only, as the profile is: the server checks every call.

import type { Profile } from "./api";
import { deriveEntitlements } from "./entitlements";
import { ENTITLEMENT_KEY, type KeyValueStorage } from "./storage";

const DAY_MS = 86_400_000;

/** How long a profile the server confirmed may unlock the studio without a new check. */
export const OFFLINE_TRUST_MS = 7 * DAY_MS;

export interface CachedEntitlement {
  userId: string;
  profile: Profile;
  /** When the server answered this profile (ms since epoch). */
  checkedAt: number;
  /** Past this instant the entry unlocks nothing (ms since epoch). */
  expiresAt: number;
}

function time(date: string | null | undefined): number | null {
  if (!date) return null;
  const t = Date.parse(date);
  return Number.isFinite(t) ? t : null;
}

/** The end of the paid access `profile` shows: null when it has none or its access has no end
 *  date (an admin's override, a grant without one); else the latest end among its grants. */
export function accessEnd(profile: Profile): number | null {
  const ent = deriveEntitlements(profile);
  if (!ent.hasUnlimitedAccess || ent.adminOverride) return null;
  const sub = profile.subscription;
  const ends: (number | null)[] = [];
  if (sub?.isActive) ends.push(time(sub.endDate));
  if (profile.hasTemporaryAccess && profile.temporaryAccess) ends.push(time(profile.temporaryAccess.endDate));
  if (ends.length === 0 || ends.includes(null)) return null;
  return Math.max(...(ends as number[]));
}

/** When an entitlement checked at `checkedAt` stops unlocking anything offline. */
export function entitlementExpiry(profile: Profile, checkedAt: number): number {
  const end = accessEnd(profile);
  const trusted = checkedAt + OFFLINE_TRUST_MS;
  return end === null ? trusted : Math.min(trusted, end);
}

/** Keeps the profile the server just answered (the temporary grant's free-text reason left out). */
export function cacheEntitlement(storage: KeyValueStorage, profile: Profile, now: number): void {
  const kept: Profile = profile.temporaryAccess ? { ...profile, temporaryAccess: { ...profile.temporaryAccess, reason: "" } } : profile;
  const entry: CachedEntitlement = { userId: profile.user.id, profile: kept, checkedAt: now, expiresAt: entitlementExpiry(profile, now) };
  try {
    storage.setItem(ENTITLEMENT_KEY, JSON.stringify(entry));
  } catch {
    // A full or refused storage: the studio works online as before.
  }
}

/** The stored entry, whatever its age; null when absent or unreadable. */
export function readCachedEntry(storage: KeyValueStorage): CachedEntitlement | null {
  const raw = storage.getItem(ENTITLEMENT_KEY);
  if (!raw) return null;
  try {
    const v = JSON.parse(raw) as Partial<CachedEntitlement> | null;
    if (!v || typeof v.userId !== "string" || typeof v.checkedAt !== "number" || typeof v.expiresAt !== "number") return null;
    const p = v.profile;
    if (!p || typeof p !== "object" || !p.user || p.user.id !== v.userId || typeof p.user.email !== "string") return null;
    return v as CachedEntitlement;
  } catch {
    return null;
  }
}

/** Whether `entry` may stand in for the server at `now`. */
export function isCurrent(entry: Pick<CachedEntitlement, "checkedAt" | "expiresAt">, now: number): boolean {
  return entry.checkedAt <= now && now < entry.expiresAt;
}

/** The stored entry of `userId` while it is current, else null. */
export function currentEntry(storage: KeyValueStorage, userId: string | null | undefined, now: number): CachedEntitlement | null {
  const entry = readCachedEntry(storage);
  return entry && userId && entry.userId === userId && isCurrent(entry, now) ? entry : null;
}

/** The cached profile of `userId` while it is current, else null. */
export function readCachedEntitlement(storage: KeyValueStorage, userId: string | null | undefined, now: number): Profile | null {
  return currentEntry(storage, userId, now)?.profile ?? null;
}
