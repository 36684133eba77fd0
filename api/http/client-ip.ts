// The client's address for rate limits: the socket's remote address, or X-Forwarded-For when
// TRUST_PROXY says how many proxy hops sit in front of us. Without a socket (tests calling
// app.request()) it falls back to a constant instead of crashing.
import { getConnInfo } from "@hono/node-server/conninfo";
import type { Context } from "hono";

export const UNKNOWN_CLIENT = "unknown";

export function clientIp(c: Context, trustProxyHops: number): string {
  if (trustProxyHops > 0) {
    const forwarded = c.req.header("x-forwarded-for");
    if (forwarded) {
      // Each trusted proxy appends the address it saw; count back from the right so a client
      // cannot choose its own key by sending a forged header.
      const hops = forwarded
        .slice(0, 2048)
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);
      if (hops.length > 0) return hops[Math.max(0, hops.length - trustProxyHops)].slice(0, 64);
    }
  }
  try {
    return getConnInfo(c).remote.address ?? UNKNOWN_CLIENT;
  } catch {
    return UNKNOWN_CLIENT;
  }
}
