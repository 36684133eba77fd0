// The common-password check of every new password (sign-up, password change, reset), on the
// server: besides the spec's prefix rule (rules/passwords.ts, which the web form also runs), a
// password is refused when it is one of the 49,233 most used passwords of @zxcvbn-ts/language-common's
// dictionary (leaked-password frequency lists, maintained with zxcvbn-ts; OWASP ASVS 5 asks for at
// least the 3,000 most common), compared without regard to case. Same text as the prefix rule.
// Server-only: the list would add about 380 kB to the web bundle, so the form shows the server's
// answer for a listed password.
import { dictionary } from "@zxcvbn-ts/language-common";
import { isCommonPassword } from "../rules/passwords";

let listed: ReadonlySet<string> | null = null;

/** The list, lower-cased, made on first use (about 30 ms and 3 MB). */
function commonList(): ReadonlySet<string> {
  listed ??= new Set(dictionary["passwords-common"].map((p) => p.toLowerCase()));
  return listed;
}

/** How many passwords the list holds (docs and tests). */
export function commonPasswordCount(): number {
  return commonList().size;
}

/** True when a new password must be refused as too common: the spec's prefixes, or the list. */
export function isTooCommon(password: string): boolean {
  return isCommonPassword(password) || commonList().has(password.toLowerCase());
}
