// POST /api/csp-report: where browsers send Content-Security-Policy violations (the policy's
// report-uri, api/http/security-headers.ts). Both shapes are read: the classic
// {"csp-report": {...}} (application/csp-report) and the Reporting API's list of
// {type: "csp-violation", body: {...}}. Small (8 KiB), rate-limited per client, and the log line
// holds only the directive and the blocked URL's origin (or a keyword such as "inline" or
// "eval"): a report's full URLs may carry tokens in their paths or query strings. Answers 204.
import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv, Services } from "../context";
import { bodyLimitOf, clientIp, parseWith, readJson } from "../http/boundary";
import { MSG } from "../messages";

export const CSP_REPORT_LIMIT = 8 * 1024;

const text = z.string().max(4096).optional();
const classic = z.object({
  "csp-report": z.object({ "effective-directive": text, "violated-directive": text, "blocked-uri": text }),
});
const reportingApi = z
  .array(z.object({ type: z.string().max(64), body: z.object({ effectiveDirective: text, blockedURL: text }).optional() }))
  .max(100);
const reportBody = z.union([classic, reportingApi], { error: MSG.cspReportInvalid });

export interface CspViolation {
  directive: string;
  blocked: string;
}

/** The directive's name, or "unknown" when it is not one. */
function directiveOf(value: string | undefined): string {
  const name = (value ?? "").trim().split(/\s+/)[0].toLowerCase();
  return /^[a-z-]{1,40}$/.test(name) ? name : "unknown";
}

/** The blocked URL's origin, or the keyword the browser used ("inline", "eval", "data", ...). */
function blockedOf(value: string | undefined): string {
  const v = (value ?? "").trim();
  if (URL.canParse(v)) {
    const url = new URL(v);
    if (url.protocol === "http:" || url.protocol === "https:") return url.origin;
    return url.protocol.replace(/:$/, "");
  }
  const keyword = v.toLowerCase();
  return /^[a-z-]{1,32}$/.test(keyword) ? keyword : "unknown";
}

/** The violations a report body describes, reduced to what may be logged. */
export function violationsOf(body: z.output<typeof reportBody>): CspViolation[] {
  if (!Array.isArray(body)) {
    const r = body["csp-report"];
    return [{ directive: directiveOf(r["effective-directive"] ?? r["violated-directive"]), blocked: blockedOf(r["blocked-uri"]) }];
  }
  return body
    .filter((r) => r.type === "csp-violation" && r.body)
    .map((r) => ({ directive: directiveOf(r.body?.effectiveDirective), blocked: blockedOf(r.body?.blockedURL) }));
}

export function cspReportRoutes(s: Services): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  // The same limit as the JSON routes' (a 413 the sender can read, the refused body dropped within bounds).
  const limit = bodyLimitOf(CSP_REPORT_LIMIT);

  app.post("/", limit, async (c) => {
    await s.limiters.cspReportPerIp.enforce(clientIp(c, s.config.trustProxy));
    const body = parseWith(reportBody, await readJson(c));
    for (const v of violationsOf(body)) {
      if (s.log.warn) s.log.warn("CSP violation", { ...v });
      else s.log.error("CSP violation", { ...v });
    }
    return c.body(null, 204);
  });

  return app;
}
