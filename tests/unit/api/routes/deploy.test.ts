// Deploy to live: admins only; one build at a time; the served files switch to the new
// release only when its build is complete; a failed build changes nothing and leaves no release
// behind; old releases are pruned; the request body is never executed (a real Vite build with a
// hostile "build command" in the body builds the app and runs nothing else).
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readlinkSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Hono } from "hono";
import { afterEach, describe, expect, it } from "vitest";
import { Deployer, type WebBuild } from "../../../../api/services/deploy";
import { webAppRoutes } from "../../../../api/static";
import { getWith, makeTestApp, postJson, signUp, type TestEnv } from "../helpers";

const ADMIN = "boss@example.com";
let env: TestEnv | null = null;
const dirs: string[] = [];
afterEach(async () => {
  await env?.close();
  env = null;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), "deploy-test-"));
  dirs.push(d);
  return d;
}

/** A build that writes an index.html with `marker`, after `gate` opens. */
function fakeBuild(marker: () => string, gate: Promise<void> = Promise.resolve()): WebBuild {
  return async (outDir) => {
    await gate;
    mkdirSync(outDir, { recursive: true });
    writeFileSync(join(outDir, "index.html"), `<!doctype html><p>${marker()}</p>`);
  };
}

async function setup(build: WebBuild) {
  const root = tempDir();
  const initial = join(root, "dist");
  mkdirSync(initial);
  writeFileSync(join(initial, "index.html"), "<!doctype html><p>first</p>");
  const deployer = new Deployer({ releasesDir: join(root, "releases"), initialDir: initial, publicUrl: "http://studio.test", build });
  const e = (env = await makeTestApp({ adminEmails: [ADMIN] }, { deployer }));
  const web = new Hono().route("/", webAppRoutes(() => deployer.currentDir));
  const page = async () => (await web.request("/")).text();
  return { e, deployer, root, page, admin: (await signUp(e, ADMIN)).token, user: (await signUp(e, "u@example.com")).token };
}

describe("deploy", () => {
  it("admins only; serves the new release once it is built; one at a time", async () => {
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const { e, deployer, page, admin, user, root } = await setup(fakeBuild(() => "second", gate));
    expect((await postJson(e, "/api/deploy", {})).status).toBe(401);
    expect((await postJson(e, "/api/deploy", {}, user)).status).toBe(403);
    const res = await postJson(e, "/api/deploy", { provider: "x" }, admin);
    expect(res.status).toBe(202);
    const { id } = (await res.json()) as { id: string };
    expect(await (await getWith(e, "/api/deploy/status")).json()).toMatchObject({ state: "building", id, url: null, claimed: false, claim_url: null });
    expect((await postJson(e, "/api/deploy", {}, admin)).status).toBe(409);
    expect(await page()).toContain("first"); // still the old files while building
    open();
    await deployer.settle();
    expect(await (await getWith(e, "/api/deploy/status")).json()).toMatchObject({
      state: "ready",
      id,
      url: "http://studio.test/",
      claimed: true,
      claim_url: "http://studio.test/admin/dashboard",
    });
    expect(await page()).toContain("second");
    expect(readlinkSync(join(root, "releases", "current"))).toBe(id);
  });

  it("a failed build changes nothing, leaves no release, and says why to admins only", async () => {
    const { e, deployer, page, admin, root } = await setup(async (outDir) => {
      mkdirSync(outDir, { recursive: true });
      writeFileSync(join(outDir, "half.js"), "");
      throw new Error("Build failed (exit code 1)");
    });
    await postJson(e, "/api/deploy", {}, admin);
    await deployer.settle();
    expect(await (await getWith(e, "/api/deploy/status")).json()).not.toHaveProperty("error");
    expect(await (await getWith(e, "/api/deploy/status", admin)).json()).toMatchObject({ state: "failed", error: "Build failed (exit code 1)" });
    expect(await page()).toContain("first");
    expect(readdirSync(join(root, "releases"))).toEqual([]);
  });

  it("a build without an index.html fails", async () => {
    const { e, deployer, page, admin } = await setup(async (outDir) => {
      mkdirSync(outDir, { recursive: true });
    });
    await postJson(e, "/api/deploy", {}, admin);
    await deployer.settle();
    expect(await (await getWith(e, "/api/deploy/status", admin)).json()).toMatchObject({ state: "failed", error: "The build produced no index.html" });
    expect(await page()).toContain("first");
  });

  it("keeps the last three releases", async () => {
    let n = 0;
    const { e, deployer, page, admin, root } = await setup(fakeBuild(() => `release ${++n}`));
    for (let i = 0; i < 5; i++) {
      await postJson(e, "/api/deploy", {}, admin);
      await deployer.settle();
      e.clock.advance(2000);
    }
    expect(await page()).toContain("release 5");
    expect(readdirSync(join(root, "releases")).filter((d) => d !== "current")).toHaveLength(3);
  });

  it("without a deployer the route answers 503", async () => {
    const e = (env = await makeTestApp({ adminEmails: [ADMIN] }));
    const admin = (await signUp(e, ADMIN)).token;
    expect((await postJson(e, "/api/deploy", {}, admin)).status).toBe(503);
  });

  it("a real Vite build; the body's build command is never run", async () => {
    const root = tempDir();
    const marker = join(root, "pwned");
    const deployer = new Deployer({ releasesDir: join(root, "releases"), initialDir: join(root, "none"), publicUrl: "http://studio.test" });
    const e = (env = await makeTestApp({ adminEmails: [ADMIN] }, { deployer }));
    const admin = (await signUp(e, ADMIN)).token;
    const res = await postJson(e, "/api/deploy", { provider: "netlify", buildCommand: `touch ${marker}; echo`, outputDir: `../../; touch ${marker}` }, admin);
    expect(res.status).toBe(202);
    await deployer.settle();
    const status = await (await getWith(e, "/api/deploy/status", admin)).json();
    expect(status, JSON.stringify(status)).toMatchObject({ state: "ready" });
    expect(existsSync(join(deployer.currentDir, "index.html"))).toBe(true);
    expect(readdirSync(join(deployer.currentDir, "assets")).some((f) => f.endsWith(".js"))).toBe(true);
    expect(existsSync(marker)).toBe(false);
  }, 120_000);
});
