// The password rules of spec/accounts.md sections 5 and 9, in one dependency-free module that the
// API's request schemas and the web app's form checks both import (the web bundle takes nothing
// else from the server).

/** Shortest password anyone may choose. */
export const PASSWORD_MIN = 6;
/** Longest password accepted (bounds the hashing work per request). */
export const PASSWORD_MAX = 256;

/** A new password must not start with these ("case-insensitive for words"). */
export const COMMON_PASSWORD_PREFIXES = ["123456", "password", "qwerty", "abc123", "111111", "000000"] as const;

export function isCommonPassword(password: string): boolean {
  const lower = password.toLowerCase();
  return COMMON_PASSWORD_PREFIXES.some((p) => lower.startsWith(p));
}
