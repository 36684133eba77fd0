// Session tokens: only an untampered HS256 JWT with our iss/aud, unexpired, naming a live session
// row of its own subject is accepted. Tampered, expired, alg:none, foreign-key and revoked tokens
// all answer 401.
import { SignJWT, UnsecuredJWT, decodeJwt, decodeProtectedHeader } from "jose";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MSG } from "../../../../api/messages";
import { SESSION_TTL_MS } from "../../../../api/services/sessions";
import { getWith, makeTestApp, signUp, TEST_SECRET, type TestEnv } from "../helpers";

const ISS = "tone-studio-api";
const AUD = "tone-studio-web";

let env: TestEnv;
let token: string;
let userId: string;
beforeEach(async () => {
  env = await makeTestApp();
  ({ token, userId } = await signUp(env, "ada@example.com"));
});
afterEach(async () => {
  await env.close();
});

async function expectRefused(candidate: string) {
  const res = await getWith(env, "/api/user/profile", candidate);
  expect(res.status).toBe(401);
  expect(await res.json()).toEqual({ error: MSG.invalidToken });
}

function sign(claims: Record<string, unknown>, opts: { secret?: string; alg?: string } = {}) {
  const now = Math.floor(env.clock.now().getTime() / 1000);
  return new SignJWT({ iss: ISS, aud: AUD, sub: userId, iat: now, exp: now + 3600, ...claims })
    .setProtectedHeader({ alg: opts.alg ?? "HS256" })
    .sign(new TextEncoder().encode(opts.secret ?? TEST_SECRET));
}

describe("session tokens", () => {
  it("carry iss, aud, sub, sid and a 30-day exp, HS256", async () => {
    expect(decodeProtectedHeader(token).alg).toBe("HS256");
    const claims = decodeJwt(token);
    expect(claims.iss).toBe(ISS);
    expect(claims.aud).toBe(AUD);
    expect(claims.sub).toBe(userId);
    expect(claims.exp! - claims.iat!).toBe(SESSION_TTL_MS / 1000);
    const row = await env.db.selectFrom("sessions").selectAll().where("id", "=", claims.sid as string).executeTakeFirst();
    expect(row?.user_id).toBe(userId);
    expect((await getWith(env, "/api/user/profile", token)).status).toBe(200);
  });

  it("refuses a token with a tampered payload or signature", async () => {
    const [h, p, s] = token.split(".");
    const payload = JSON.parse(Buffer.from(p, "base64url").toString());
    const forged = Buffer.from(JSON.stringify({ ...payload, sub: "someone-else" })).toString("base64url");
    await expectRefused(`${h}.${forged}.${s}`);
    const flipped = s.slice(0, -2) + (s.endsWith("AA") ? "BB" : "AA");
    await expectRefused(`${h}.${p}.${flipped}`);
    await expectRefused(`${h}.${p}`);
  });

  it("refuses an alg:none token with otherwise valid claims", async () => {
    const { sid } = decodeJwt(token);
    const unsigned = new UnsecuredJWT({ sid })
      .setSubject(userId)
      .setIssuer(ISS)
      .setAudience(AUD)
      .setIssuedAt(Math.floor(env.clock.now().getTime() / 1000))
      .setExpirationTime(Math.floor(env.clock.now().getTime() / 1000) + 3600)
      .encode();
    await expectRefused(unsigned);
    await expectRefused(`${unsigned}${token.split(".")[2]}`); // none header + a real signature
  });

  it("refuses a token signed with another key or another HMAC alg", async () => {
    const { sid } = decodeJwt(token);
    await expectRefused(await sign({ sid }, { secret: "another-secret-another-secret-another-secret" }));
    await expectRefused(await sign({ sid }, { alg: "HS512" }));
    expect((await getWith(env, "/api/user/profile", await sign({ sid }))).status).toBe(200); // control
  });

  it("refuses wrong issuer, audience, subject, or a sid with no session row", async () => {
    const { sid } = decodeJwt(token);
    await expectRefused(await sign({ sid, iss: "https://evil.example" }));
    await expectRefused(await sign({ sid, aud: "someone-else" }));
    await expectRefused(await sign({ sid, sub: "not-the-owner" }));
    await expectRefused(await sign({ sid: "no-such-session" }));
    await expectRefused(await sign({}));
  });

  it("expires after 30 days (injected clock)", async () => {
    env.clock.advance(SESSION_TTL_MS - 60_000);
    expect((await getWith(env, "/api/user/profile", token)).status).toBe(200);
    env.clock.advance(120_000);
    await expectRefused(token);
  });

  it("refuses a validly signed but already expired token", async () => {
    const { sid } = decodeJwt(token);
    const now = Math.floor(env.clock.now().getTime() / 1000);
    await expectRefused(await sign({ sid, iat: now - 7200, exp: now - 3600 }));
  });

  it("refuses tokens of a deleted account", async () => {
    await env.db.deleteFrom("users").where("id", "=", userId).execute();
    await expectRefused(token);
    expect(await env.db.selectFrom("sessions").select("id").execute()).toHaveLength(0); // cascade
  });

  it("a non-Bearer Authorization header counts as no token", async () => {
    const res = await env.app.request("/api/user/profile", { headers: { Authorization: `Basic ${token}` } });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: MSG.authRequired });
  });
});
