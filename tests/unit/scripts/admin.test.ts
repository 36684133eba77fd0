// `npm run admin -- grant <email>` (scripts/admin.ts) run as a real child process against a temp
// DATA_DIR: it flags an existing account as admin, and fails clearly (exit 1) for an unknown
// e-mail, a missing database or bad usage.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSqlite } from "../../../api/db/open";
import { computeEntitlements } from "../../../api/services/entitlements";
import { createUser, findUserByEmail } from "../../../api/services/users";

const run = promisify(execFile);
const REPO = fileURLToPath(new URL("../../..", import.meta.url));
const TSX = join(REPO, "node_modules", ".bin", "tsx");
let dataDir: string;

async function admin(args: string[], dir = dataDir) {
  try {
    const { stdout, stderr } = await run(TSX, ["scripts/admin.ts", ...args], {
      cwd: REPO,
      env: { ...process.env, DATA_DIR: dir },
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

async function adminFlag(email: string) {
  const db = await openSqlite(join(dataDir, "studio.db"));
  try {
    return (await findUserByEmail(db, email))?.is_admin;
  } finally {
    await db.destroy();
  }
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "studio-admin-"));
  const db = await openSqlite(join(dataDir, "studio.db"));
  await createUser(db, { email: "ada@example.com", fullName: null, passwordHash: "x", now: new Date() });
  await db.destroy();
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe("scripts/admin.ts", () => {
  it("grant marks an existing account admin (e-mail case-insensitive)", async () => {
    expect(await adminFlag("ada@example.com")).toBe(0);
    const result = await admin(["grant", "ADA@example.com"]);
    expect(result).toMatchObject({ code: 0, stdout: "ada@example.com is now an admin.\n" });
    expect(await adminFlag("ada@example.com")).toBe(1);
    const e = computeEntitlements({
      user: { email: "ada@example.com", is_admin: 1, admin_override: 0 },
      subscriptions: [],
      grants: [],
      adminEmails: [],
      now: new Date(),
    });
    expect(e.isAdmin).toBe(true);
  });

  it("revoke clears the flag", async () => {
    expect((await admin(["revoke", "ada@example.com"])).code).toBe(0);
    expect(await adminFlag("ada@example.com")).toBe(0);
  });

  it("an unknown e-mail is a clear error with exit code 1", async () => {
    const result = await admin(["grant", "ghost@example.com"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("No account with the e-mail ghost@example.com");
  });

  it("a missing database and bad usage exit 1", async () => {
    const empty = mkdtempSync(join(tmpdir(), "studio-admin-empty-"));
    try {
      const missing = await admin(["grant", "ada@example.com"], empty);
      expect(missing.code).toBe(1);
      expect(missing.stderr).toContain("No database at");
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
    const usage = await admin(["promote"]);
    expect(usage.code).toBe(1);
    expect(usage.stderr).toContain("Usage: npm run admin -- grant <email>");
  });
});
