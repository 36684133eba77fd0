// Command-line account administration against DATA_DIR's database (or DATABASE_URL's):
//   npm run admin -- grant <email>    mark an existing account as admin
//   npm run admin -- revoke <email>   clear the database admin flag again
// Unknown e-mails, a missing database or bad usage print a clear message and exit 1.
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseDatabaseUrl } from "../api/config";
import { openDatabase, redactDatabaseUrl } from "../api/db/open";
import { normalizeEmail, setAdminFlag } from "../api/services/users";

const USAGE = "Usage: npm run admin -- grant <email>\n       npm run admin -- revoke <email>";

async function runAdmin(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  out: { log: (s: string) => void; error: (s: string) => void },
): Promise<number> {
  const [command, rawEmail, ...rest] = args;
  if ((command !== "grant" && command !== "revoke") || !rawEmail || rest.length > 0) {
    out.error(USAGE);
    return 1;
  }
  const email = normalizeEmail(rawEmail);
  const databaseUrl = parseDatabaseUrl(env.DATABASE_URL);
  const file = databaseUrl ? redactDatabaseUrl(databaseUrl) : join(resolve(env.DATA_DIR || "./data"), "studio.db");
  if (!databaseUrl && !existsSync(file)) {
    out.error(`No database at ${file}. Start the server once (npm start) or set DATA_DIR to the right folder.`);
    return 1;
  }
  const db = await openDatabase(databaseUrl ? { databaseUrl } : { sqliteFile: file });
  try {
    const changed = await setAdminFlag(db, email, command === "grant", new Date());
    if (!changed) {
      out.error(`No account with the e-mail ${email} in ${file}. The user must sign up first.`);
      return 1;
    }
    out.log(command === "grant" ? `${email} is now an admin.` : `${email} is no longer an admin (unless listed in ADMIN_EMAILS).`);
    return 0;
  } finally {
    await db.destroy();
  }
}

process.exitCode = await runAdmin(process.argv.slice(2), process.env, console).catch((err: unknown) => {
  console.error(`admin: ${err instanceof Error ? err.message : String(err)}`);
  return 1;
});
