// The single entitlement function: levels and capabilities for every kind of visitor, and the
// profile route reporting it from real rows (ADMIN_EMAILS, subscriptions, temporary access).
import { afterEach, describe, expect, it } from "vitest";
import { computeEntitlements, type EntitlementInput } from "../../../../api/services/entitlements";
import { bodyOf, getWith, makeTestApp, signUp, type TestEnv } from "../helpers";

const NOW = new Date("2030-01-01T12:00:00.000Z");
const LATER = "2030-02-01T00:00:00.000Z";
const EARLIER = "2029-12-01T00:00:00.000Z";
const user = { email: "ada@example.com", is_admin: 0, admin_override: 0 };

function ent(over: Partial<EntitlementInput>) {
  return computeEntitlements({ user, subscriptions: [], grants: [], adminEmails: [], now: NOW, ...over });
}
const grant = (over: Partial<EntitlementInput["grants"][number]> = {}) => ({
  id: "g1",
  access_type: "daily",
  duration_hours: 24,
  reason: "Admin granted access",
  status: "active",
  end_date: LATER,
  ...over,
});

describe("computeEntitlements", () => {
  it("anonymous: locked studio, nothing unlocked", () => {
    const e = ent({ user: null });
    expect(e.level).toBe("anonymous");
    expect(e.capabilities).toMatchObject({ studio: "locked", channels: 0, wavExport: false, adminTools: false });
    expect(e.subscription).toBeNull();
  });

  it("free: channel 1 only, no effects, no export, 3600 s", () => {
    const e = ent({});
    expect(e.level).toBe("free");
    expect(e.capabilities).toEqual({
      studio: "limited",
      channels: 1,
      waveformChoice: false,
      allEffects: false,
      demoEffects: false,
      wavExport: false,
      sharePreset: false,
      billingPortal: false,
      adminTools: false,
      adminStudioFeatures: false,
      videoExport: false,
      voiceRecording: false,
      maxDurationSeconds: 3600,
      exports: { kind: "none" },
    });
  });

  it("demo: only while running, unlocks channels 1-2 and the demo effects only", () => {
    const running = ent({ demoEndsAt: new Date(NOW.getTime() + 60_000) });
    expect(running.level).toBe("demo");
    expect(running.capabilities).toMatchObject({ demoEffects: true, allEffects: false, channels: 2, wavExport: false });
    expect(running.demo).toEqual({ isActive: true, timeRemaining: 60_000, hasUsedDemo: true });
    const over = ent({ demoEndsAt: new Date(NOW.getTime() - 1) });
    expect(over.level).toBe("free");
    expect(over.demo).toEqual({ isActive: false, timeRemaining: 0, hasUsedDemo: true });
    expect(ent({}).demo).toEqual({ isActive: false, timeRemaining: 0, hasUsedDemo: false });
  });

  it("pro: a live paid plan; an ended or 'Admin Access' plan does not count", () => {
    const pro = ent({ subscriptions: [{ plan_name: "Monthly Plan", status: "active", current_period_end: LATER }] });
    expect(pro).toMatchObject({ level: "pro", hasActiveSubscription: true, hasUnlimitedAccess: true });
    expect(pro.subscription).toEqual({ isActive: true, planName: "Monthly Plan", endDate: LATER });
    expect(pro.capabilities).toMatchObject({ channels: 4, allEffects: true, wavExport: true, maxDurationSeconds: 3600 });

    const ended = ent({ subscriptions: [{ plan_name: "Monthly Plan", status: "active", current_period_end: EARLIER }] });
    expect(ended).toMatchObject({ level: "free", hasActiveSubscription: false });
    expect(ended.subscription).toEqual({ isActive: false, planName: "Monthly Plan", endDate: EARLIER });

    const canceled = ent({ subscriptions: [{ plan_name: "Monthly Plan", status: "canceled", current_period_end: LATER }] });
    expect(canceled.level).toBe("free");

    const adminPlan = ent({ subscriptions: [{ plan_name: "Admin Access", status: "active", current_period_end: null }] });
    expect(adminPlan.hasActiveSubscription).toBe(false);
    expect(adminPlan.hasUnlimitedAccess).toBe(false);
  });

  it("unlimited: an active temporary-access grant or 'Temporary Access' plan", () => {
    const e = ent({ grants: [grant({ access_type: "monthly", duration_hours: 720 })] });
    expect(e).toMatchObject({ level: "unlimited", hasTemporaryAccess: true, hasUnlimitedAccess: true, hasActiveSubscription: false });
    expect(e.temporaryAccess).toMatchObject({ accessType: "monthly", planName: "Monthly Plan", durationHours: 720, endDate: LATER });
    expect(e.temporaryAccess?.timeRemaining).toBe(Date.parse(LATER) - NOW.getTime());
    expect(e.subscription).toEqual({ isActive: true, planName: "Temporary Access", endDate: LATER });
    expect(ent({ grants: [grant({ status: "revoked" })] }).level).toBe("free");
    expect(ent({ grants: [grant({ end_date: EARLIER })] }).level).toBe("free");
    const plan = ent({ subscriptions: [{ plan_name: "Temporary Access", status: "active", current_period_end: LATER }] });
    expect(plan.level).toBe("unlimited");
  });

  it("admin without override gains nothing in the studio; with override everything, 12 h", () => {
    const admin = ent({ user: { ...user, is_admin: 1 } });
    expect(admin).toMatchObject({ level: "admin", isAdmin: true, adminOverride: false, hasUnlimitedAccess: false });
    expect(admin.capabilities).toMatchObject({ adminTools: true, allEffects: false, channels: 1, maxDurationSeconds: 3600 });
    expect(admin.subscription).toEqual({ isActive: true, planName: "Admin Access", endDate: null });

    const override = ent({ user: { ...user, is_admin: 1, admin_override: 1 } });
    expect(override).toMatchObject({ level: "admin_override", adminOverride: true, hasUnlimitedAccess: true });
    expect(override.capabilities).toMatchObject({ adminStudioFeatures: true, channels: 4, maxDurationSeconds: 43200, exports: { kind: "unlimited" } });
  });

  it("export length and count by plan: Day Pass and Monthly 1 h, Commercial 12 h; grants unlimited, 12 h only for a commercial grant", () => {
    const sub = (plan_name: string) => ({ subscriptions: [{ plan_name, status: "active", current_period_end: LATER }] });
    expect(ent(sub("One Day Pass")).capabilities).toMatchObject({ maxDurationSeconds: 3600, exports: { kind: "counted", plan: "oneDay", quota: 10 } });
    expect(ent(sub("Monthly Plan")).capabilities).toMatchObject({ maxDurationSeconds: 3600, exports: { kind: "counted", plan: "monthly", quota: 100 }, videoExport: true });
    expect(ent(sub("Commercial License")).capabilities).toMatchObject({ maxDurationSeconds: 43200, exports: { kind: "counted", plan: "commercial", quota: 200 } });
    for (const access_type of ["daily", "monthly", "custom"]) {
      expect(ent({ grants: [grant({ access_type })] }).capabilities).toMatchObject({ maxDurationSeconds: 3600, exports: { kind: "unlimited" } });
    }
    expect(ent({ grants: [grant({ access_type: "commercial" })] }).capabilities).toMatchObject({ maxDurationSeconds: 43200, exports: { kind: "unlimited" } });
    // an ended plan gives nothing
    const ended = ent({ subscriptions: [{ plan_name: "Commercial License", status: "active", current_period_end: EARLIER }] });
    expect(ended.capabilities).toMatchObject({ maxDurationSeconds: 3600, exports: { kind: "none" } });
  });

  it("voice recording: Monthly, Commercial, their grants and admins with the override; not the Day Pass, a daily grant or a free account", () => {
    const sub = (plan_name: string) => ({ subscriptions: [{ plan_name, status: "active", current_period_end: LATER }] });
    expect(ent(sub("Monthly Plan")).capabilities.voiceRecording).toBe(true);
    expect(ent(sub("Commercial License")).capabilities.voiceRecording).toBe(true);
    expect(ent(sub("One Day Pass")).capabilities.voiceRecording).toBe(false);
    expect(ent({ grants: [grant({ access_type: "monthly" })] }).capabilities.voiceRecording).toBe(true);
    expect(ent({ grants: [grant({ access_type: "commercial" })] }).capabilities.voiceRecording).toBe(true);
    expect(ent({ grants: [grant({ access_type: "daily" })] }).capabilities.voiceRecording).toBe(false);
    expect(ent({ user: { ...user, is_admin: 1, admin_override: 1 } }).capabilities.voiceRecording).toBe(true);
    expect(ent({ user: { ...user, is_admin: 1 } }).capabilities.voiceRecording).toBe(false);
    expect(ent({}).capabilities.voiceRecording).toBe(false);
  });

  it("ADMIN_EMAILS makes an admin; the override flag means nothing for non-admins", () => {
    expect(ent({ adminEmails: ["ada@example.com"] }).isAdmin).toBe(true);
    const notAdmin = ent({ user: { ...user, admin_override: 1 } });
    expect(notAdmin).toMatchObject({ level: "free", adminOverride: false, hasUnlimitedAccess: false });
  });
});

describe("profile reports the entitlements from stored rows", () => {
  let env: TestEnv | undefined;
  afterEach(async () => {
    await env?.close();
  });

  it("an ADMIN_EMAILS account is admin in login answers and the profile", async () => {
    env = await makeTestApp({ adminEmails: ["Boss@Example.com"] });
    const res = await bodyOf(
      await Promise.resolve(
        env.app.request("/api/auth/register", { method: "POST", body: JSON.stringify({ email: "boss@example.com", password: "sea glass 12" }) }),
      ),
    );
    expect(res.user).toMatchObject({ isAdmin: true, is_super_admin: true });
    const profile = await bodyOf(await getWith(env, "/api/user/profile", res.token as string));
    expect(profile).toMatchObject({ isAdmin: true, adminOverride: false, hasUnlimitedAccess: false });
    expect(profile.subscription).toEqual({ isActive: true, planName: "Admin Access", endDate: null });
  });

  it("a subscription row and a temporary-access grant show up", async () => {
    env = await makeTestApp();
    const { token, userId } = await signUp(env, "ada@example.com");
    const now = env.clock.now();
    const end = new Date(now.getTime() + 86_400_000).toISOString();
    await env.db
      .insertInto("temporary_access")
      .values({
        id: "g1",
        email: "ada@example.com",
        access_type: "daily",
        duration_hours: 24,
        reason: "Support",
        status: "active",
        created_at: now.toISOString(),
        end_date: end,
        granted_by: null,
      })
      .execute();
    let profile = await bodyOf(await getWith(env, "/api/user/profile", token));
    expect(profile).toMatchObject({ hasTemporaryAccess: true, hasUnlimitedAccess: true, hasActiveSubscription: false });
    expect(profile.temporaryAccess).toMatchObject({ id: "g1", accessType: "daily", timeRemaining: 86_400_000 });
    expect(profile.entitlements).toMatchObject({ capabilities: { maxDurationSeconds: 3600, exports: { kind: "unlimited" } } });

    await env.db
      .insertInto("subscriptions")
      .values({
        id: "s1",
        user_id: userId,
        plan_name: "Commercial License",
        status: "active",
        current_period_end: end,
        created_at: now.toISOString(),
        updated_at: now.toISOString(),
      })
      .execute();
    profile = await bodyOf(await getWith(env, "/api/user/profile", token));
    expect(profile).toMatchObject({ hasActiveSubscription: true, entitlements: { level: "pro" } });
    expect(profile.subscription).toEqual({ isActive: true, planName: "Commercial License", endDate: end });
    // Commercial's 12 hours; the grant's unlimited count
    expect(profile.entitlements).toMatchObject({ capabilities: { maxDurationSeconds: 43200, exports: { kind: "unlimited" } } });

    env.clock.advance(86_400_001);
    profile = await bodyOf(await getWith(env, "/api/user/profile", token));
    expect(profile).toMatchObject({ hasActiveSubscription: false, hasTemporaryAccess: false, entitlements: { level: "free" } });
    expect(profile.subscription).toEqual({ isActive: false, planName: "Commercial License", endDate: end });
  });
});
