// The studio's side of counted exports (web/export/export-count.ts) against the real API
// (app.request as its fetch): the count line's text after each export, the refusal at 0 with the
// API's text and the line at 0, nothing shown for unlimited accounts.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EXPORT_TEXT, exportCountText } from "../../../../api/rules/exports";
import { askExport, exportCountStore, ExportRefusedError, refreshExportCount } from "../../../../web/export/export-count";
import { makeTestApp, signUp, type TestEnv } from "../../api/helpers";

let env: TestEnv;
const fetchImpl = ((input: RequestInfo | URL, init?: RequestInit) => Promise.resolve(env.app.request(String(input), init))) as typeof fetch;

beforeEach(async () => {
  env = await makeTestApp();
  exportCountStore.setState({ count: null });
});
afterEach(async () => {
  await env.close();
});

async function dayPass(): Promise<string> {
  const { token, userId } = await signUp(env, "day@example.com");
  const now = env.clock.now().toISOString();
  await env.db
    .insertInto("subscriptions")
    .values({ id: "s1", user_id: userId, plan_name: "One Day Pass", status: "active", current_period_end: new Date(env.clock.ms + 86_400_000).toISOString(), created_at: now, updated_at: now })
    .execute();
  return token;
}

const line = () => {
  const c = exportCountStore.getState().count;
  return c ? exportCountText(c) : null;
};

describe("counted exports in the studio", () => {
  it("the line goes down by one per export and the 11th Day Pass export is refused with the API's text", async () => {
    const token = await dayPass();
    await refreshExportCount({ token, fetchImpl });
    expect(line()).toBe("10 of 10 exports left this period");
    await askExport("wav", 60, { token, fetchImpl });
    expect(line()).toBe("9 of 10 exports left this period");
    for (let i = 0; i < 9; i++) await askExport("marketplace", 60, { token, fetchImpl });
    expect(line()).toBe("0 of 10 exports left this period");
    const refused = await askExport("wav", 60, { token, fetchImpl }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ExportRefusedError);
    expect((refused as ExportRefusedError).message).toBe(EXPORT_TEXT.usedUp("oneDay", ""));
    expect(line()).toBe("0 of 10 exports left this period");
  });

  it("a free account is refused with the plan text; the line is empty", async () => {
    const { token } = await signUp(env, "free@example.com");
    const refused = await askExport("wav", 60, { token, fetchImpl }).catch((e: unknown) => e);
    expect((refused as ExportRefusedError).message).toBe(EXPORT_TEXT.needsPlan);
    expect((refused as ExportRefusedError).status).toBe(403);
    expect(exportCountStore.getState().count).toBeNull();
  });

  it("87 of 100", () => {
    expect(EXPORT_TEXT.left(87, 100)).toBe("87 of 100 exports left this period");
    expect(exportCountText({ left: null, quota: null, periodEnd: null })).toBe("Unlimited exports");
  });
});
