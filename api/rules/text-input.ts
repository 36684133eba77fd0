// The rule for text anyone sends: no NUL character (U+0000) anywhere, in a JSON body (values or
// keys, at any depth), a multipart field, a path or a query string. PostgreSQL cannot store it in
// text at all and nothing in the product means it, so it is refused with the same 400 on both
// databases instead of failing inside a query.

export const NUL_REFUSED = "Text must not contain the NUL character (\\u0000).";

/** True when any string in `value` (a parsed JSON value, or a record of fields) holds U+0000. */
export function containsNul(value: unknown, depth = 0): boolean {
  if (typeof value === "string") return value.includes("\u0000");
  if (typeof value !== "object" || value === null || depth > 200) return false;
  if (Array.isArray(value)) return value.some((v) => containsNul(v, depth + 1));
  for (const [k, v] of Object.entries(value)) {
    if (k.includes("\u0000") || containsNul(v, depth + 1)) return true;
  }
  return false;
}

/** True when a request target (path and query, still percent-encoded) decodes to a NUL. */
export function urlContainsNul(target: string): boolean {
  return /%00/i.test(target) || target.includes("\u0000");
}
