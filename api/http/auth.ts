// Bearer-token authentication middleware: resolves `Authorization: Bearer <jwt>` to a live session
// (see services/sessions.ts) and stores it as c.var.auth, or answers 401.
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "../context";
import { ApiError } from "../errors";
import { MSG } from "../messages";
import type { SessionService } from "../services/sessions";

export function bearerToken(c: Context): string | null {
  const header = c.req.header("authorization");
  if (!header || header.length > 4200) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : null;
}

export function requireAuth(sessions: SessionService): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const token = bearerToken(c);
    if (!token) throw new ApiError(401, MSG.authRequired);
    const session = await sessions.verify(token);
    if (!session) throw new ApiError(401, MSG.invalidToken);
    c.set("auth", session);
    await next();
  };
}
