// The fuzzing world: one app with everything configured (payments against the fake Stripe, local
// file storage, a deployer with an instant fake build, a fake ffmpeg), four callers (anonymous, a
// free user, a Pro subscriber, an admin with the override on), a pool of real values the routes
// look up (sound, preset, user and checkout ids, e-mails, download and e-mailed codes), the route
// list read from the Hono app itself, and the check every answer must pass.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Stripe from "stripe";
import type { ApiApp } from "../../../../api/app";
import { Deployer } from "../../../../api/services/deploy";
import { createLimiters } from "../../../../api/services/rate-limit";
import { presetData } from "../../../../dsp/host/schema/preset";
import { defaultAudioState } from "../../../../dsp/host/schema/state";
import { wavHeader } from "../../../../dsp/host/export/wav";
import { lastCode, signUp } from "../helpers";
import { makePaymentsApp, nowSeconds, type PaymentsEnv, PRICES, WEBHOOK_SECRET } from "../routes/payments-setup";
import {
  type AuthShape, type BodySpec, bodyOf, type HeaderSpec, headerSafe, hugeText, isHuge, type Huge, type PathEncoding, placeInPath,
} from "./arbitraries";

export const ADMIN_EMAIL = "fuzz-admin@example.com";
export const FREE_EMAIL = "fuzz-free@example.com";
export const PRO_EMAIL = "fuzz-pro@example.com";
export const PASSWORD = "fuzz password";

export type Identity = "anonymous" | "free" | "pro" | "admin";
export const IDENTITIES: readonly Identity[] = ["anonymous", "free", "pro", "admin"];

export interface Route {
  method: string;
  path: string;
}
export const routeKey = (r: Route) => `${r.method} ${r.path}`;

export interface FuzzEnv extends PaymentsEnv {
  userIds: Record<Exclude<Identity, "anonymous">, string>;
  /** Real values the routes look up; path, query and body generators draw from them. */
  known: string[];
  /** Known-good bodies by route key ("POST /api/presets/user"), mutated for depth. */
  examples: Record<string, unknown[]>;
  /** A live session (and its CSRF token) for the caller, with rate limits and the override reset. */
  caller(identity: Identity): Promise<{ token: string | null; csrf: string | null; other: string }>;
  /** Marks the world as possibly changed (a write was accepted): the next caller() resets it. */
  changed(): void;
}

/** Every (method, path) the app routes, middleware included (method ALL), once each. */
export function routesOf(app: ApiApp): Route[] {
  const seen = new Map<string, Route>();
  for (const r of app.routes) {
    const route = { method: r.method.toUpperCase(), path: r.path };
    seen.set(routeKey(route), route);
  }
  return [...seen.values()];
}

/** Names of a route pattern's parameters (":id", ":id{regex}") and wildcards, in order. */
export function paramsOf(path: string): string[] {
  return [...path.matchAll(/:(\w+)(?:\{[^}]*\})?|\*/g)].map((m) => m[1] ?? "*");
}

/** The pattern with each parameter replaced by its generated value. */
export function fillPath(path: string, values: { value: string | Huge; how: PathEncoding }[]): string {
  let i = 0;
  return path.replace(/:(\w+)(?:\{[^}]*\})?|\*/g, () => {
    const v = values[i++];
    if (!v) return "x";
    return placeInPath(isHuge(v.value) ? hugeText(v.value) : v.value, v.how);
  });
}

/** A 48 kHz stereo WAV of silence. */
function wavFile(seconds: number): Uint8Array<ArrayBuffer> {
  const frames = Math.round(seconds * 48000);
  const header = wavHeader(frames * 4);
  const out = new Uint8Array(header.length + frames * 4);
  out.set(header);
  return out;
}

export async function makeFuzzEnv(): Promise<FuzzEnv> {
  const scratch = mkdtempSync(join(tmpdir(), "fuzz-world-"));
  // ffmpeg stand-in: answers a few bytes and exits, so a valid video request costs one audio chunk.
  const ffmpeg = join(scratch, "fake-ffmpeg");
  writeFileSync(ffmpeg, "#!/bin/sh\nprintf 'fake-mp4'\nexit 0\n");
  chmodSync(ffmpeg, 0o755);
  const initial = join(scratch, "dist");
  mkdirSync(initial);
  writeFileSync(join(initial, "index.html"), "<!doctype html><p>first</p>");
  const deployer = new Deployer({
    releasesDir: join(scratch, "releases"),
    initialDir: initial,
    publicUrl: "http://studio.test",
    build: async (outDir) => {
      mkdirSync(outDir, { recursive: true });
      writeFileSync(join(outDir, "index.html"), "<!doctype html><p>fuzz</p>");
    },
  });
  const base = await makePaymentsApp({ adminEmails: [ADMIN_EMAIL] }, { deployer, video: { ffmpegPath: ffmpeg } });
  const { app, db } = base;
  const s = app.services;

  const admin = await signUp(base, ADMIN_EMAIL, PASSWORD);
  const free = await signUp(base, FREE_EMAIL, PASSWORD);
  const pro = await signUp(base, PRO_EMAIL, PASSWORD);
  const now = base.clock.now().toISOString();
  await db
    .insertInto("subscriptions")
    .values({ id: "fuzz-sub", user_id: pro.userId, plan_name: "Monthly Plan", status: "active", current_period_end: "2100-01-01T00:00:00.000Z", created_at: now, updated_at: now })
    .execute();
  const json = (token: string, extra: Record<string, string> = {}) => ({ "Content-Type": "application/json", Authorization: `Bearer ${token}`, ...extra });
  const ok = async (res: Response | Promise<Response>, what: string) => {
    const r = await res;
    if (r.status >= 300) throw new Error(`fuzz setup: ${what} answered ${r.status} ${await r.text()}`);
    return (await r.json()) as Record<string, unknown>;
  };
  await ok(app.request("/api/admin/override", { method: "POST", headers: json(admin.token), body: '{"enabled":true}' }), "override");

  // A paid and a free sound, uploaded through the route itself.
  const upload = async (price: string) => {
    const fd = new FormData();
    fd.append("audio", new Blob([wavFile(1)], { type: "audio/wav" }), "tone.wav");
    for (const [k, v] of Object.entries({ title: `Fuzz ${price}`, price, duration: "1", category: "Focus" })) fd.append(k, v);
    const body = await ok(app.request("/api/marketplace/upload-direct", { method: "POST", body: fd, headers: { Authorization: `Bearer ${admin.token}` } }), "upload");
    return (body.sound as { id: string }).id;
  };
  const paidSound = await upload("4.99");
  const freeSound = await upload("0");
  await ok(app.request(`/api/marketplace/purchase/${freeSound}`, { method: "POST", headers: json(free.token) }), "purchase");
  const link = await ok(app.request(`/api/marketplace/sounds/${paidSound}/download-link`, { method: "POST", headers: json(admin.token) }), "download link");
  const downloadToken = new URL(String(link.url), "http://x").searchParams.get("token") ?? "";
  const preset = await ok(
    app.request("/api/presets/user", { method: "POST", headers: json(pro.token), body: JSON.stringify({ name: "Fuzz", data: presetData(defaultAudioState()) }) }),
    "preset",
  );
  const checkout = await ok(
    app.request("/api/stripe/create-checkout-session", { method: "POST", headers: json(free.token), body: JSON.stringify({ priceId: PRICES.oneDay }) }),
    "checkout",
  );
  const checkoutId = String(checkout.sessionId);
  base.stripe.pay(checkoutId);
  const verifyCode = await lastCode(base, FREE_EMAIL);

  const known = [
    paidSound, freeSound, downloadToken, String(preset.id), checkoutId, verifyCode, admin.userId, free.userId, pro.userId,
    ADMIN_EMAIL, FREE_EMAIL, PRO_EMAIL, PASSWORD, PRICES.oneDay, PRICES.monthly, PRICES.commercial, "cs_test_000001",
    "http://studio.test/app", "payment", "subscription", "daily", "custom", "Focus",
  ];

  const sound = presetData(defaultAudioState());
  const enabledChannels = sound.channels.filter((c) => c.enabled && c.frequency > 0).length;
  const examples: Record<string, unknown[]> = {
    "POST /api/auth/register": [{ email: "new@example.com", password: PASSWORD, confirmPassword: PASSWORD, fullName: "New" }],
    "POST /api/auth/login": [{ email: FREE_EMAIL, password: PASSWORD }],
    "POST /api/auth/exchange": [{ code: verifyCode }],
    "POST /api/auth/verify-email": [{ token: verifyCode }],
    "POST /api/auth/forgot-password": [{ email: FREE_EMAIL }],
    "POST /api/auth/reset-password": [{ token: verifyCode, password: PASSWORD, confirmPassword: PASSWORD }],
    "POST /api/auth/update-password": [{ newPassword: PASSWORD, confirmNewPassword: PASSWORD, currentPassword: PASSWORD }],
    "POST /api/stripe/create-checkout-session": [{ priceId: PRICES.monthly, mode: "subscription" }, { priceId: PRICES.oneDay }],
    "POST /api/handle-guest-checkout": [{ session_id: checkoutId }],
    "POST /api/stripe/verify-checkout-session": [{ sessionId: checkoutId }],
    "POST /api/stripe/create-customer-portal-session": [{ return_url: "http://studio.test/app" }],
    "POST /api/stripe/webhook": [
      { id: "evt_fuzz", type: "checkout.session.completed", created: nowSeconds(base), data: { object: { id: checkoutId, mode: "payment", status: "complete", payment_status: "paid", client_reference_id: free.userId, metadata: { userId: free.userId } } } },
      { id: "evt_fuzz2", type: "customer.subscription.updated", created: nowSeconds(base), data: { object: { id: "sub_x", status: "active", items: { data: [{ price: { id: PRICES.monthly }, current_period_end: 4102444800 }] }, metadata: { userId: pro.userId } } } },
      { id: "evt_fuzz3", type: "invoice.paid", created: nowSeconds(base), data: { object: { id: "in_1", subscription: "sub_x", amount_paid: 2200 } } },
    ],
    "POST /api/demo/start": [{ durationMinutes: 10 }],
    "POST /api/presets/user": [{ name: "Mine", data: sound }],
    "POST /api/admin/override": [{ enabled: true }],
    "POST /api/admin/grant-temporary-access": [{ email: FREE_EMAIL, planType: "daily" }, { email: PRO_EMAIL, planType: "custom", days: 3, reason: "fuzz" }],
    "POST /api/admin/revoke-temporary-access": [{ email: FREE_EMAIL }],
    "POST /api/admin/resend-verification": [{ email: FREE_EMAIL }],
    [`POST /api/marketplace/sounds/:id/rating`]: [{ rating: 4 }],
    "POST /api/video-export": [
      {
        backgroundType: "black",
        quality: "720p",
        duration: 2,
        frequencies: sound.channels,
        effects: sound.effects,
        verification: { enabledChannelCount: enabledChannels, enabledEffectCount: 0, timestamp: 1 },
      },
    ],
  };

  const ids = { admin: admin.userId, free: free.userId, pro: pro.userId };
  // Sessions are kept while they live and the world is reset only after a request that may have
  // changed it: each write is a synced SQLite commit, and most fuzzed requests are refused.
  const sessions = new Map<keyof typeof ids, { token: string; csrf: string }>();
  const sessionOf = async (who: keyof typeof ids) => {
    const kept = sessions.get(who);
    if (kept && (await s.sessions.verify(kept.token))) return kept;
    const made = await s.sessions.create(ids[who]);
    const fresh = { token: made.token, csrf: s.sessions.csrfTokenFor(made.sessionId) };
    sessions.set(who, fresh);
    return fresh;
  };
  let dirty = true;
  return {
    ...base,
    userIds: ids,
    known,
    examples,
    changed() {
      dirty = true;
    },
    async caller(identity) {
      // Every run starts from the same world: fresh rate-limit windows, the admin's override on,
      // and a live session (an earlier run may have signed out or changed the password).
      Object.assign(s.limiters, createLimiters(s.clock));
      if (dirty) {
        await db.transaction().execute(async (trx) => {
          await trx.updateTable("users").set({ admin_override: 1 }).where("id", "=", ids.admin).execute();
          // Grants, demos and webhook-made subscriptions would turn the free caller into another kind.
          await trx.deleteFrom("temporary_access").execute();
          await trx.deleteFrom("demo_sessions").execute();
          await trx.deleteFrom("subscriptions").where("id", "!=", "fuzz-sub").execute();
        });
        dirty = false;
      }
      const other = (await sessionOf(identity === "pro" ? "free" : "pro")).token;
      if (identity === "anonymous") return { token: null, csrf: null, other };
      const own = await sessionOf(identity);
      return { token: own.token, csrf: own.csrf, other };
    },
    async close() {
      await s.video.idle();
      await base.close();
      rmSync(scratch, { recursive: true, force: true });
    },
  };
}

// ---- one request ------------------------------------------------------------------------------

export interface FuzzRequest {
  method: string;
  url: string;
  headers: HeaderSpec;
  body: BodySpec;
}

/** The Authorization header a shape makes of the caller's token. */
function authorization(shape: AuthShape, token: string | null, other: string): string | null {
  const t = token ?? "";
  switch (shape) {
    case "bearer":
      return token ? `Bearer ${t}` : null;
    case "lower":
      return `bearer ${t}`;
    case "spaces":
      return `Bearer    ${t}   `;
    case "tampered":
      return `Bearer ${t.slice(0, -2)}${t.endsWith("A") ? "B" : "A"}x`;
    case "none":
      return null;
    case "basic":
      return "Basic Zm9vOmJhcg==";
    case "word":
      return "Bearer";
    case "long":
      return `Bearer ${"a".repeat(5000)}`;
    case "alg-none":
      return "Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4Iiwic2lkIjoieCIsImV4cCI6OTk5OTk5OTk5OX0.";
    case "garbage":
      return "Bearer \u00ff\u00fe<script>";
    case "other-user":
      return `Bearer ${other}`;
  }
}

/** Sends one generated request as `identity` and returns the answer. */
export async function send(env: FuzzEnv, identity: Identity, req: FuzzRequest): Promise<Response> {
  const who = await env.caller(identity);
  const { body, contentType } = bodyOf(req.body);
  const h = new Headers();
  const auth = authorization(req.headers.auth, who.token, who.other);
  if (auth !== null) h.set("Authorization", headerSafe(auth));
  const type = req.headers.contentType === "natural" ? contentType : req.headers.contentType === "none" ? undefined : req.headers.contentType;
  if (type) h.set("Content-Type", headerSafe(type));
  if (req.headers.csrf === "real") {
    if (who.csrf) h.set("X-CSRF-Token", who.csrf);
  } else if (req.headers.csrf !== "none") h.set("X-CSRF-Token", headerSafe(req.headers.csrf));
  if (req.headers.range !== null) h.set("Range", headerSafe(req.headers.range));
  if (req.headers.requestedWith !== null) h.set("X-Requested-With", headerSafe(req.headers.requestedWith));
  const sig = req.headers.stripeSignature;
  if (sig === "signed" || sig === "stale") {
    // A correct signature over the very bytes sent: the webhook then handles the random event.
    const payload = typeof body === "string" ? body : body ? Buffer.from(body).toString("latin1") : "";
    const timestamp = nowSeconds(env) - (sig === "stale" ? 3600 : 0);
    h.set("Stripe-Signature", Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET, timestamp }));
  } else if (sig !== "none") h.set("Stripe-Signature", headerSafe(sig));
  for (const [name, value] of req.headers.extra) h.append(name, headerSafe(value));
  const withBody = req.method !== "GET" && req.method !== "HEAD" && body !== undefined;
  const res = await env.app.request(req.url, { method: req.method, headers: h, ...(withBody ? { body } : {}) });
  if (req.method !== "GET" && req.method !== "HEAD" && res.status < 400) env.changed();
  return res;
}

/** Whether a request URL lands in the API's space (a path like /api/../x resolves to the web app's /x). */
export const isApiPath = (url: string): boolean => /^\/api(\/|$)/.test(new URL(url, "http://localhost").pathname);

/** What is wrong with an answer, or null: never a 5xx; every error of the API is JSON {error: text}. */
export async function problemWith(res: Response, method: string, api = true): Promise<string | null> {
  const type = res.headers.get("content-type") ?? "";
  const text = method === "HEAD" ? "" : await res.text();
  if (res.status >= 500) return `answered ${res.status}: ${text.slice(0, 300)}`;
  if (res.status >= 400 && method !== "HEAD" && api) {
    if (!/^application\/json\b/i.test(type)) return `answered ${res.status} with Content-Type '${type}' (${text.slice(0, 100)})`;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return `answered ${res.status} with invalid JSON: ${text.slice(0, 100)}`;
    }
    const error = (parsed as { error?: unknown } | null)?.error;
    if (typeof error !== "string" || error.trim() === "") return `answered ${res.status} without an error text: ${text.slice(0, 100)}`;
  } else if (/json/i.test(type) && text !== "") {
    try {
      JSON.parse(text);
    } catch {
      return `answered ${res.status} with invalid JSON: ${text.slice(0, 100)}`;
    }
  }
  return null;
}
