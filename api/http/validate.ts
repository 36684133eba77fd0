// Request-boundary helpers: the 64 KiB body limit for JSON routes, tolerant JSON reading
// (malformed JSON is a 400, an empty body reads as {} so the missing-field text is answered),
// and zod parsing that turns the first issue's message into a 400.
import type { MiddlewareHandler } from "hono";
import type { Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { z } from "zod";
import { ApiError } from "../errors";
import { MSG } from "../messages";

export const JSON_BODY_LIMIT = 64 * 1024;

export const jsonBodyLimit: MiddlewareHandler = bodyLimit({
  maxSize: JSON_BODY_LIMIT,
  onError: () => {
    throw new ApiError(413, MSG.bodyTooLarge);
  },
});

export async function readJson(c: Context): Promise<unknown> {
  const text = await c.req.text();
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError(400, MSG.badJson);
  }
}

/** Parses `data` with `schema`; every schema here carries user-facing messages on its checks. */
export function parseWith<S extends z.ZodType>(schema: S, data: unknown): z.output<S> {
  const result = schema.safeParse(data);
  if (!result.success) {
    const message = result.error.issues[0]?.message ?? MSG.badJson;
    throw new ApiError(400, message);
  }
  return result.data;
}

/** readJson + parseWith. */
export async function readBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.output<S>> {
  return parseWith(schema, await readJson(c));
}
