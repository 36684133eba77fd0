// Deploy to live (from the developer panel): builds the web app into a new release directory
// and switches the files the server serves to it in one step. The build runs Vite through Node
// with a fixed argument list (no shell, nothing from the request), one at a time; the served
// release only changes once the build has finished and holds an index.html, so visitors never
// see a half-built app. The last few releases are kept; older ones are removed.
// Status: idle → building → ready | failed, polled by the panel every 5 s.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdir, readdir, rename, rm, stat, symlink } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import { DEPLOY_CLAIM_PATH, type DeployState, type DeployStatus } from "../rules/admin";

export type { DeployState, DeployStatus };

/** Builds the web app into `outDir` (must not exist yet); rejects with a short reason on failure. */
export type WebBuild = (outDir: string) => Promise<void>;

const REPO_ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const BUILD_TIMEOUT_MS = 5 * 60_000;

/** The real build: `vite build --outDir <dir>` in the repository, with Node, no shell. */
export const viteBuild: WebBuild = (outDir) =>
  new Promise((ok, fail) => {
    const vite = join(dirname(createRequire(import.meta.url).resolve("vite/package.json")), "bin", "vite.js");
    const child = spawn(process.execPath, [vite, "build", "--outDir", outDir, "--emptyOutDir", "--logLevel", "warn"], {
      cwd: REPO_ROOT,
      shell: false,
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
    const timer = setTimeout(() => child.kill("SIGKILL"), BUILD_TIMEOUT_MS);
    child.on("error", (err) => {
      clearTimeout(timer);
      fail(err);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (code === 0) ok();
      else fail(Object.assign(new Error(`Build failed (${signal ?? `exit code ${code}`})`), { log: stderr }));
    });
  });

export interface DeployerOptions {
  /** Where releases go (DATA_DIR/releases). */
  releasesDir: string;
  /** What is served before the first deploy (the dist/ `npm start` built). */
  initialDir: string;
  publicUrl: string;
  build?: WebBuild;
  clock?: () => Date;
  /** Releases kept, the served one included. */
  keep?: number;
  log?: (message: string, fields?: Record<string, unknown>) => void;
}

export class Deployer {
  #current: string;
  #status: DeployStatus = { state: "idle", id: null, url: null, claimed: false, claim_url: null, startedAt: null, finishedAt: null };
  #running: Promise<void> | null = null;
  #lastStamp = 0;
  readonly #o: Required<Omit<DeployerOptions, "log">> & Pick<DeployerOptions, "log">;

  constructor(o: DeployerOptions) {
    this.#o = { build: viteBuild, clock: () => new Date(), keep: 3, ...o };
    this.#current = resolve(o.initialDir);
  }

  /** The directory served now. */
  get currentDir(): string {
    return this.#current;
  }

  status(): DeployStatus {
    return { ...this.#status };
  }

  /** Starts a deploy; null when one is already building. */
  start(): DeployStatus | null {
    if (this.#running) return null;
    const now = this.#o.clock();
    // Ids sort in the order deploys started (millisecond stamps, strictly increasing).
    const stamp = new Date(Math.max(now.getTime(), this.#lastStamp + 1));
    this.#lastStamp = stamp.getTime();
    const id = `${stamp.toISOString().replace(/[-:.TZ]/g, "")}-${randomBytes(3).toString("hex")}`;
    this.#status = { state: "building", id, url: null, claimed: false, claim_url: null, startedAt: now.toISOString(), finishedAt: null };
    this.#running = this.#run(id).finally(() => (this.#running = null));
    return this.status();
  }

  /** Resolves when the deploy in progress (if any) has finished. */
  async settle(): Promise<void> {
    await this.#running;
  }

  async #run(id: string): Promise<void> {
    const dir = join(this.#o.releasesDir, id);
    try {
      await mkdir(this.#o.releasesDir, { recursive: true });
      await this.#o.build(dir);
      const index = await stat(join(dir, "index.html")).catch(() => null);
      if (!index?.isFile()) throw new Error("The build produced no index.html");
      this.#current = dir; // the switch: every later request reads the new release
      await this.#pointCurrent(id);
      // Claimed on arrival: the release is this server's own, managed from the admin dashboard.
      const claim_url = `${this.#o.publicUrl}${DEPLOY_CLAIM_PATH}`;
      this.#status = { ...this.#status, state: "ready", url: `${this.#o.publicUrl}/`, claimed: true, claim_url, finishedAt: this.#o.clock().toISOString() };
      await this.#prune();
    } catch (err) {
      await rm(dir, { recursive: true, force: true }).catch(() => undefined);
      const message = err instanceof Error ? err.message : String(err);
      this.#o.log?.("Deploy failed", { id, message, log: (err as { log?: string }).log });
      this.#status = { ...this.#status, state: "failed", finishedAt: this.#o.clock().toISOString(), error: message };
    }
  }

  /** releases/current → the served release (a symlink replaced by rename, for people and tools). */
  async #pointCurrent(id: string): Promise<void> {
    const tmp = join(this.#o.releasesDir, `.current-${randomBytes(4).toString("hex")}`);
    await symlink(id, tmp);
    await rename(tmp, join(this.#o.releasesDir, "current"));
  }

  async #prune(): Promise<void> {
    const names = (await readdir(this.#o.releasesDir)).filter((n) => /^\d{17}-[0-9a-f]{6}$/.test(n)).sort();
    const old = names.slice(0, Math.max(0, names.length - this.#o.keep));
    for (const n of old) {
      const dir = join(this.#o.releasesDir, n);
      if (dir !== this.#current) await rm(dir, { recursive: true, force: true });
    }
  }
}
