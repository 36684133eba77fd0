// Deploy to live (spec/accounts.md sections 4, 7 and 8): POST /api/deploy, then the status every
// 5 s until ready or failed; a 404 (no deploy route), a refusal or a failed build all end in
// 'Deployment failed. Please try again.'; a status read without an answer is retried a few times;
// stop() ends polling. Timers and calls are fakes.

import { describe, expect, it, vi } from "vitest";
import { ApiRequestError } from "../../../../web/account/api";
import type { DeployStatus } from "../../../../web/admin/admin-api";
import { deployReadyToasts } from "../../../../api/rules/admin";
import { DEPLOY_NETWORK_RETRIES, DEPLOY_POLL_MS, startDeploy, type DeployView } from "../../../../web/admin/deploy";

const flush = () => new Promise((r) => setTimeout(r, 0));

function status(state: DeployStatus["state"], extra: Partial<DeployStatus> = {}): DeployStatus {
  return { state, url: null, id: "d1", claimed: false, claim_url: null, startedAt: "2025-08-01T10:00:00Z", finishedAt: null, ...extra };
}

function harness(start: () => Promise<{ ok: boolean; id?: string }>, answers: (DeployStatus | Error)[]) {
  const timers: { fn: () => void; ms: number }[] = [];
  const views: DeployView[] = [];
  let reads = 0;
  const run = startDeploy({
    start,
    status: async () => {
      const a = answers[Math.min(reads++, answers.length - 1)];
      if (a instanceof Error) throw a;
      return a;
    },
    onUpdate: (v) => views.push(v),
    setTimeout: (fn, ms) => {
      timers.push({ fn, ms });
      return timers.length;
    },
    clearTimeout: vi.fn(),
  });
  /** Fires the pending 5-second timer. */
  const tick = async () => {
    const t = timers.shift();
    expect(t?.ms).toBe(DEPLOY_POLL_MS);
    t!.fn();
    await flush();
  };
  return { run, views, timers, tick, reads: () => reads };
}

vi.spyOn(console, "error").mockImplementation(() => undefined);

describe("deploy", () => {
  it("polls every 5 s until ready", async () => {
    const h = harness(async () => ({ ok: true, id: "d1" }), [
      status("building"),
      status("building"),
      status("ready", { url: "https://live.example", finishedAt: "2025-08-01T10:01:00Z" }),
    ]);
    await flush();
    expect(h.reads()).toBe(1);
    expect(h.views.map((v) => v.phase)).toEqual(["starting", "building", "building"]);
    await h.tick();
    expect(h.reads()).toBe(2);
    await h.tick();
    const final = await h.run.done;
    expect(final).toMatchObject({ phase: "ready", status: { url: "https://live.example" } });
    expect(h.timers).toHaveLength(0);
  });

  it("an answer about an older deploy keeps it polling", async () => {
    const h = harness(async () => ({ ok: true, id: "new" }), [status("ready", { id: "old" }), status("ready", { id: "new", url: "u" })]);
    await flush();
    expect(h.views.at(-1)).toEqual({ phase: "building", status: null });
    await h.tick();
    expect((await h.run.done).phase).toBe("ready");
  });

  it("a 404 from the deploy route is the failure text", async () => {
    const h = harness(async () => Promise.reject(new ApiRequestError("Not Found", 404)), [status("idle")]);
    expect(await h.run.done).toMatchObject({ phase: "failed", message: "Deployment failed. Please try again." });
    expect(h.reads()).toBe(0);
  });

  it("a failed build or ok false fails", async () => {
    const built = harness(async () => ({ ok: true, id: "d1" }), [status("failed", { error: "vite exited 1" })]);
    expect(await built.run.done).toEqual({ phase: "failed", message: "Deployment failed. Please try again.", detail: "vite exited 1" });
    const refused = harness(async () => ({ ok: false }), [status("idle")]);
    expect((await refused.run.done).phase).toBe("failed");
  });

  it("status reads without an answer are retried, then it fails", async () => {
    const offline = new ApiRequestError("Failed to fetch", 0, true);
    const h = harness(async () => ({ ok: true, id: "d1" }), [offline]);
    await flush();
    for (let i = 0; i < DEPLOY_NETWORK_RETRIES; i++) await h.tick();
    expect((await h.run.done).phase).toBe("failed");
    expect(h.reads()).toBe(DEPLOY_NETWORK_RETRIES + 1);
  });

  it("a status route that answers 404 fails at once", async () => {
    const h = harness(async () => ({ ok: true, id: "d1" }), [new ApiRequestError("Request failed", 404)]);
    expect((await h.run.done).phase).toBe("failed");
    expect(h.reads()).toBe(1);
  });

  it("stop() ends polling", async () => {
    const h = harness(async () => ({ ok: true, id: "d1" }), [status("building")]);
    await flush();
    h.run.stop();
    expect(await h.run.done).toEqual({ phase: "idle" });
    const before = h.views.length;
    h.timers.shift()?.fn();
    await flush();
    expect(h.views.length).toBe(before);
  });
});

describe("deploy toasts once ready (spec section 4: a toast of 5 s, then a claim toast of 10 s)", () => {
  it("says what went live, then that the release is claimed and where it is managed", () => {
    expect(deployReadyToasts({ url: "https://live.example/", claimed: true, claim_url: "https://live.example/admin/dashboard" })).toEqual([
      { text: "Deployed to live: https://live.example/", duration: 5000 },
      { text: "Deployment claimed: manage it at https://live.example/admin/dashboard", duration: 10_000 },
    ]);
  });

  it("an unclaimed release asks to be claimed; no claim url, no claim toast", () => {
    expect(deployReadyToasts({ url: null, claimed: false, claim_url: "https://host.example/claim" })[1]).toEqual({
      text: "Claim your deployment: https://host.example/claim",
      duration: 10_000,
    });
    expect(deployReadyToasts({ url: null, claimed: false, claim_url: null })).toEqual([{ text: "Deployed to live", duration: 5000 }]);
  });
});
