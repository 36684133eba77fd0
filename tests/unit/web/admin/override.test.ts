// The admin override switch (spec/accounts.md sections 4 and 6) against a fake server: it flips the
// profile's value, mirrors it in localStorage (adminOverride), refreshes the profile so the
// entitlements change at once, blocks repeat toggles while one is out, resets the demo when it
// turns off, reports 'Failed to toggle admin override' on failure and refuses non-admins; the
// mirror and the storage event of another tab.

import { describe, expect, it, vi } from "vitest";
import { deriveEntitlements } from "../../../../web/account/entitlements";
import { createSessionStore } from "../../../../web/account/session-store";
import { memoryStorage, OVERRIDE_KEY, saveSession } from "../../../../web/account/storage";
import { createOverrideStore, mirrorOverride, overrideStorageChange } from "../../../../web/admin/override";

const user = { id: "a1", email: "boss@b.test", fullName: null, isAdmin: true, is_super_admin: true, emailVerified: true, createdAt: "" };

function setup(opts: { admin?: boolean; failWith?: number } = {}) {
  const admin = opts.admin ?? true;
  const server = { override: false, profileReads: 0 };
  const fetchImpl = (async (input: RequestInfo | URL) => {
    const url = String(input);
    if (url === "/api/user/profile") {
      server.profileReads++;
      const p = {
        user: { ...user, isAdmin: admin, is_super_admin: admin },
        isAdmin: admin,
        subscription: null,
        hasTemporaryAccess: false,
        temporaryAccess: null,
        adminOverride: admin && server.override,
        hasUnlimitedAccess: admin && server.override,
      };
      return new Response(JSON.stringify(p), { status: 200 });
    }
    return new Response("{}", { status: 404 });
  }) as typeof fetch;
  const storage = memoryStorage();
  saveSession(storage, "tok", user);
  const session = createSessionStore({ storage, fetchImpl });
  let release: () => void = () => undefined;
  const setOverride = vi.fn(async (token: string | null, enabled: boolean) => {
    expect(token).toBe("tok");
    await new Promise<void>((r) => (release = r));
    if (opts.failWith) throw new Error(`status ${opts.failWith}`);
    server.override = enabled;
    return enabled;
  });
  const resetDemo = vi.fn();
  const onFailure = vi.fn();
  const store = createOverrideStore({ session, storage, setOverride, resetDemo, onFailure });
  const ent = () => deriveEntitlements(session.getState().profile, session.getState().user);
  return { server, session, storage, store, setOverride, resetDemo, onFailure, ent, release: () => release() };
}

const flush = () => new Promise((r) => setTimeout(r, 0));

describe("override toggle", () => {
  it("turns on: toggling while out, repeats ignored, mirrored, entitlements unlimited at once", async () => {
    const t = setup();
    await t.session.getState().restore();
    expect(t.ent()).toMatchObject({ isAdmin: true, adminOverride: false, hasUnlimitedAccess: false });
    const first = t.store.getState().toggle();
    expect(t.store.getState().toggling).toBe(true);
    expect(await t.store.getState().toggle()).toBeNull(); // blocked while the first is out
    await flush();
    t.release();
    expect(await first).toBe(true);
    expect(t.setOverride).toHaveBeenCalledTimes(1);
    expect(t.setOverride).toHaveBeenCalledWith("tok", true);
    expect(t.store.getState().toggling).toBe(false);
    expect(t.storage.getItem(OVERRIDE_KEY)).toBe("true");
    expect(t.ent()).toMatchObject({ adminOverride: true, hasUnlimitedAccess: true });
    expect(t.resetDemo).not.toHaveBeenCalled();
  });

  it("turning off resets the demo and the entitlements", async () => {
    const t = setup();
    t.server.override = true;
    await t.session.getState().restore();
    const p = t.store.getState().toggle();
    await flush();
    t.release();
    expect(await p).toBe(false);
    expect(t.setOverride).toHaveBeenCalledWith("tok", false);
    expect(t.resetDemo).toHaveBeenCalledTimes(1);
    expect(t.storage.getItem(OVERRIDE_KEY)).toBe("false");
    expect(t.ent()).toMatchObject({ adminOverride: false, hasUnlimitedAccess: false });
  });

  it("a failure is reported as 'Failed to toggle admin override' and nothing changes", async () => {
    const t = setup({ failWith: 500 });
    const error = vi.spyOn(console, "error").mockImplementation(() => undefined);
    await t.session.getState().restore();
    const reads = t.server.profileReads;
    const p = t.store.getState().toggle();
    await flush();
    t.release();
    expect(await p).toBeNull();
    expect(t.onFailure).toHaveBeenCalledWith("Failed to toggle admin override");
    expect(error).toHaveBeenCalled();
    expect(t.storage.getItem(OVERRIDE_KEY)).toBeNull();
    expect(t.server.profileReads).toBe(reads);
    expect(t.store.getState().toggling).toBe(false);
    error.mockRestore();
  });

  it("a non-admin is refused with 'Only admin users can toggle override' without a request", async () => {
    const t = setup({ admin: false });
    const error = vi.spyOn(console, "error").mockImplementation(() => undefined);
    await t.session.getState().restore();
    expect(await t.store.getState().toggle()).toBeNull();
    expect(t.setOverride).not.toHaveBeenCalled();
    expect(t.onFailure).toHaveBeenCalledWith("Only admin users can toggle override");
    error.mockRestore();
  });
});

describe("override mirror", () => {
  it("follows the admin's profile and is removed for other users", () => {
    const s = memoryStorage();
    mirrorOverride(s, { isAdmin: true, adminOverride: true });
    expect(s.getItem("adminOverride")).toBe("true");
    mirrorOverride(s, { isAdmin: true });
    expect(s.getItem("adminOverride")).toBe("false");
    mirrorOverride(s, null);
    expect(s.getItem("adminOverride")).toBe("false");
    mirrorOverride(s, { isAdmin: false, adminOverride: false });
    expect(s.getItem("adminOverride")).toBeNull();
  });

  it("reads another tab's change", () => {
    expect(overrideStorageChange({ key: "adminOverride", oldValue: "true", newValue: "false" })).toEqual({ turnedOff: true });
    expect(overrideStorageChange({ key: "adminOverride", oldValue: "false", newValue: "true" })).toEqual({ turnedOff: false });
    expect(overrideStorageChange({ key: "adminOverride", oldValue: "true", newValue: null })).toBeNull();
    expect(overrideStorageChange({ key: "auth_token", oldValue: "a", newValue: "b" })).toBeNull();
  });
});
