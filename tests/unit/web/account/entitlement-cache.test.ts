// The signed-in user's entitlement kept on the device for offline use: when it expires (the end of
// the paid access it shows, at most OFFLINE_TRUST_MS after the server confirmed it, never before
// it was checked), whose it is, and what the session store makes of it when the server cannot be
// reached (Pro from a current entry, the free level from an expired one) and when it can again.

import { describe, expect, it } from "vitest";
import type { Profile } from "../../../../web/account/api";
import {
  accessEnd, cacheEntitlement, entitlementExpiry, isCurrent, OFFLINE_TRUST_MS, readCachedEntitlement, readCachedEntry,
} from "../../../../web/account/entitlement-cache";
import { deriveEntitlements } from "../../../../web/account/entitlements";
import { createSessionStore } from "../../../../web/account/session-store";
import { ENTITLEMENT_KEY, memoryStorage, saveSession } from "../../../../web/account/storage";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const T0 = Date.parse("2026-11-20T12:00:00Z");

const user = { id: "u1", email: "ann@b.test", fullName: "Ann", isAdmin: false, is_super_admin: false, emailVerified: true, createdAt: "" };
const free: Profile = { user, isAdmin: false, subscription: null, hasTemporaryAccess: false, temporaryAccess: null };

function subscribed(endsIn: number | null): Profile {
  return {
    ...free,
    subscription: { isActive: true, planName: "Monthly Plan", endDate: endsIn === null ? null : new Date(T0 + endsIn).toISOString() },
    hasActiveSubscription: true,
    hasUnlimitedAccess: true,
  };
}

function temporary(endsIn: number): Profile {
  const endDate = new Date(T0 + endsIn).toISOString();
  return {
    ...free,
    subscription: { isActive: true, planName: "Temporary Access", endDate },
    hasTemporaryAccess: true,
    hasUnlimitedAccess: true,
    temporaryAccess: { id: "g1", accessType: "daily", planName: "One-Day Pass", durationHours: 24, endDate, timeRemaining: endsIn, reason: "Support ticket 42 (private note)" },
  };
}

describe("entitlement expiry", () => {
  it("a subscription's cached entitlement ends with its period, at most a week after the check", () => {
    expect(entitlementExpiry(subscribed(2 * DAY), T0)).toBe(T0 + 2 * DAY);
    expect(entitlementExpiry(subscribed(30 * DAY), T0)).toBe(T0 + OFFLINE_TRUST_MS);
    expect(OFFLINE_TRUST_MS).toBe(7 * DAY);
  });

  it("a temporary grant's ends with the grant; several grants end with the latest", () => {
    expect(entitlementExpiry(temporary(5 * HOUR), T0)).toBe(T0 + 5 * HOUR);
    const both: Profile = { ...temporary(5 * HOUR), subscription: subscribed(3 * DAY).subscription, hasActiveSubscription: true };
    expect(accessEnd(both)).toBe(T0 + 3 * DAY);
  });

  it("access without an end date (an admin's override, an open-ended plan) and no access at all are trusted for the week", () => {
    const admin: Profile = { ...free, isAdmin: true, adminOverride: true, hasUnlimitedAccess: true };
    expect(accessEnd(admin)).toBeNull();
    expect(entitlementExpiry(admin, T0)).toBe(T0 + OFFLINE_TRUST_MS);
    expect(entitlementExpiry(subscribed(null), T0)).toBe(T0 + OFFLINE_TRUST_MS);
    expect(accessEnd(free)).toBeNull();
    expect(entitlementExpiry(free, T0)).toBe(T0 + OFFLINE_TRUST_MS);
  });

  it("an entry is current from its check up to (not including) its expiry, and not before the check", () => {
    const entry = { checkedAt: T0, expiresAt: T0 + DAY };
    expect(isCurrent(entry, T0)).toBe(true);
    expect(isCurrent(entry, T0 + DAY - 1)).toBe(true);
    expect(isCurrent(entry, T0 + DAY)).toBe(false);
    expect(isCurrent(entry, T0 - 1)).toBe(false); // a clock set back before the check
  });
});

describe("the stored entry", () => {
  it("is read back for its own user while current, and unlocks Pro", () => {
    const s = memoryStorage();
    cacheEntitlement(s, subscribed(2 * DAY), T0);
    const p = readCachedEntitlement(s, "u1", T0 + DAY);
    expect(p).not.toBeNull();
    expect(deriveEntitlements(p).hasUnlimitedAccess).toBe(true);
  });

  it("is nothing once expired, for another user, before its check, or when unreadable", () => {
    const s = memoryStorage();
    cacheEntitlement(s, subscribed(2 * DAY), T0);
    expect(readCachedEntitlement(s, "u1", T0 + 2 * DAY)).toBeNull();
    expect(readCachedEntitlement(s, "u2", T0 + DAY)).toBeNull();
    expect(readCachedEntitlement(s, null, T0 + DAY)).toBeNull();
    expect(readCachedEntitlement(s, "u1", T0 - HOUR)).toBeNull();
    s.setItem(ENTITLEMENT_KEY, "{not json");
    expect(readCachedEntry(s)).toBeNull();
    s.setItem(ENTITLEMENT_KEY, JSON.stringify({ userId: "u1", checkedAt: T0, expiresAt: T0 + DAY, profile: { ...free, user: { ...user, id: "u2" } } }));
    expect(readCachedEntry(s)).toBeNull();
  });

  it("leaves a temporary grant's free-text reason out", () => {
    const s = memoryStorage();
    cacheEntitlement(s, temporary(5 * HOUR), T0);
    expect(s.getItem(ENTITLEMENT_KEY)).not.toContain("private note");
    expect(readCachedEntry(s)?.profile.temporaryAccess?.endDate).toBe(new Date(T0 + 5 * HOUR).toISOString());
  });
});

/** A fetch that answers the profile while `online.value`, and otherwise fails as offline does. */
function server(profile: Profile, online: { value: boolean }) {
  let calls = 0;
  const impl = (async () => {
    calls++;
    if (!online.value) throw new TypeError("Failed to fetch");
    return new Response(JSON.stringify(profile), { status: 200, headers: { "Content-Type": "application/json" } });
  }) as unknown as typeof fetch;
  return { impl, calls: () => calls };
}

describe("the session store without the server", () => {
  it("a signed-in visit caches the entitlement; an offline restore within its expiry is Pro and marked offline", async () => {
    const storage = memoryStorage();
    saveSession(storage, "tok", user);
    const online = { value: true };
    const api = server(subscribed(2 * DAY), online);
    let now = T0;
    await createSessionStore({ storage, fetchImpl: api.impl, now: () => now }).getState().restore();
    expect(readCachedEntry(storage)).toMatchObject({ userId: "u1", checkedAt: T0, expiresAt: T0 + 2 * DAY });

    online.value = false;
    now = T0 + DAY;
    const offline = createSessionStore({ storage, fetchImpl: api.impl, now: () => now });
    await offline.getState().restore();
    const s = offline.getState();
    expect(s).toMatchObject({ status: "signed_in", token: "tok", offline: true, profileAt: 0, lapsed: false });
    expect(deriveEntitlements(s.profile, s.user).hasUnlimitedAccess).toBe(true);
  });

  it("an expired cached entitlement restores the session at the free level, not Pro", async () => {
    const storage = memoryStorage();
    saveSession(storage, "tok", user);
    cacheEntitlement(storage, subscribed(2 * DAY), T0);
    const api = server(subscribed(2 * DAY), { value: false });
    const store = createSessionStore({ storage, fetchImpl: api.impl, now: () => T0 + 2 * DAY });
    await store.getState().restore();
    const s = store.getState();
    expect(s).toMatchObject({ status: "signed_in", token: "tok", offline: true, profile: null, lapsed: true });
    const ent = deriveEntitlements(s.profile, s.user);
    expect(ent.signedIn).toBe(true);
    expect(ent.hasUnlimitedAccess).toBe(false);
  });

  it("a free account's expired entry is no lapse (there was no Pro to lose)", async () => {
    const storage = memoryStorage();
    saveSession(storage, "tok", user);
    cacheEntitlement(storage, free, T0);
    const store = createSessionStore({ storage, fetchImpl: server(free, { value: false }).impl, now: () => T0 + OFFLINE_TRUST_MS });
    await store.getState().restore();
    expect(store.getState()).toMatchObject({ status: "signed_in", offline: true, profile: null, lapsed: false });
  });

  it("a studio left open offline drops to the free level when the cached entitlement expires", async () => {
    const storage = memoryStorage();
    saveSession(storage, "tok", user);
    cacheEntitlement(storage, subscribed(2 * DAY), T0);
    const pending: { fn: () => void; ms: number }[] = [];
    const timers = { set: (fn: () => void, ms: number) => pending.push({ fn, ms }), clear: () => undefined };
    let now = T0 + DAY;
    const store = createSessionStore({ storage, fetchImpl: server(free, { value: false }).impl, now: () => now, timers });
    await store.getState().restore();
    expect(deriveEntitlements(store.getState().profile, user).hasUnlimitedAccess).toBe(true);
    expect(pending.map((p) => p.ms)).toEqual([DAY]);
    now = T0 + 2 * DAY;
    pending[0].fn();
    expect(store.getState()).toMatchObject({ status: "signed_in", offline: true, profile: null, lapsed: true });
    expect(deriveEntitlements(store.getState().profile, store.getState().user).hasUnlimitedAccess).toBe(false);
    expect(pending).toHaveLength(1); // nothing left to end
  });

  it("back online, loadProfile(true) asks the server again and renews the entry", async () => {
    const storage = memoryStorage();
    saveSession(storage, "tok", user);
    cacheEntitlement(storage, subscribed(2 * DAY), T0);
    const online = { value: false };
    const api = server(subscribed(20 * DAY), online);
    let now = T0 + DAY;
    const store = createSessionStore({ storage, fetchImpl: api.impl, now: () => now });
    await store.getState().restore();
    expect(store.getState().offline).toBe(true);
    await expect(store.getState().loadProfile(true)).rejects.toMatchObject({ network: true });
    expect(store.getState().offline).toBe(true);

    online.value = true;
    now = T0 + DAY + HOUR;
    await store.getState().loadProfile(true);
    expect(store.getState()).toMatchObject({ offline: false, profileAt: now, lapsed: false });
    expect(readCachedEntry(storage)).toMatchObject({ checkedAt: now, expiresAt: now + OFFLINE_TRUST_MS });
  });

  it("an anonymous visitor caches nothing; sign-out and a new sign-in drop the entry", async () => {
    const storage = memoryStorage();
    const api = server(subscribed(2 * DAY), { value: true });
    const anon = createSessionStore({ storage, fetchImpl: api.impl, now: () => T0 });
    await anon.getState().restore();
    expect(anon.getState().status).toBe("anonymous");
    expect(storage.getItem(ENTITLEMENT_KEY)).toBeNull();
    expect(api.calls()).toBe(0);

    saveSession(storage, "tok", user);
    const store = createSessionStore({ storage, fetchImpl: api.impl, now: () => T0 });
    await store.getState().restore();
    expect(storage.getItem(ENTITLEMENT_KEY)).not.toBeNull();
    store.getState().clear();
    expect(storage.getItem(ENTITLEMENT_KEY)).toBeNull();
  });
});
