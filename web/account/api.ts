// The account API client (spec/accounts.md section 7): relative paths, JSON bodies, the bearer
// header when a token is stored, and on a non-OK answer the `error` field of the body (falling
// back to 'Request failed'). Also the answer shapes of the auth routes in api/routes, and the
// body of a password change.

// The user as the API returns it: one definition, shared with the server (type only).
import type { PublicUser } from "../../api/rules/account";
export type { PublicUser };

export interface SessionAnswer {
  token: string;
  user: PublicUser;
  csrfToken?: string;
  expiresAt?: string;
}

export interface ExchangeAnswer extends SessionAnswer {
  type: "recovery" | "signup";
  /** Recovery links only: a one-time token (1 hour) that update-password takes in place of the
   *  current password, which the user who asked for the link has forgotten. */
  resetToken?: string;
}

export interface UpdatePasswordFields {
  newPassword: string;
  confirmNewPassword: string;
  currentPassword: string;
  /** The recovery link's reset token, when the form was reached through one. */
  resetToken: string | null;
}

/** The body of POST /api/auth/update-password: the new password twice and the proof that the
 *  account is the user's, the reset token when there is one, else the current password. */
export function updatePasswordBody(f: UpdatePasswordFields): Record<string, string> {
  const { newPassword, confirmNewPassword } = f;
  return f.resetToken ? { newPassword, confirmNewPassword, resetToken: f.resetToken } : { newPassword, confirmNewPassword, currentPassword: f.currentPassword };
}

export interface SubscriptionInfo {
  isActive: boolean;
  planName: string;
  endDate: string | null;
}

export interface TemporaryAccessInfo {
  id: string;
  accessType: string;
  planName: string;
  durationHours: number;
  endDate: string;
  timeRemaining: number;
  reason: string;
}

export interface Profile {
  user: PublicUser;
  isAdmin: boolean;
  subscription: SubscriptionInfo | null;
  hasTemporaryAccess: boolean;
  temporaryAccess: TemporaryAccessInfo | null;
  hasActiveSubscription?: boolean;
  hasUnlimitedAccess?: boolean;
  adminOverride?: boolean;
  emailVerified?: boolean;
}

export interface MessageAnswer {
  ok: boolean;
  message?: string;
}

export const REQUEST_FAILED = "Request failed";

/** A failed call: `status` is the HTTP status, or 0 when the request never got an answer. */
export class ApiRequestError extends Error {
  readonly status: number;
  readonly network: boolean;
  constructor(message: string, status: number, network = false) {
    super(message);
    this.name = "ApiRequestError";
    this.status = status;
    this.network = network;
  }
}

export interface RequestOptions {
  method?: "GET" | "POST";
  body?: unknown;
  token?: string | null;
  fetchImpl?: typeof fetch;
  signal?: AbortSignal;
  /** Extra request headers (e.g. X-CSRF-Token). */
  headers?: Record<string, string>;
}

export async function requestJson<T>(path: string, opts: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: "application/json", ...opts.headers };
  if (opts.body !== undefined) headers["Content-Type"] = "application/json";
  if (opts.token) headers.Authorization = `Bearer ${opts.token}`;
  const doFetch = opts.fetchImpl ?? fetch;
  let res: Response;
  try {
    res = await doFetch(path, {
      method: opts.method ?? (opts.body === undefined ? "GET" : "POST"),
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      signal: opts.signal,
    });
  } catch (err) {
    // fetch rejects only when no answer came back (offline, DNS, CORS): a "network" failure.
    throw new ApiRequestError(err instanceof Error ? err.message : "Network error", 0, true);
  }
  const data = (await res.json().catch(() => null)) as Record<string, unknown> | null;
  if (!res.ok) {
    const error = data && typeof data.error === "string" && data.error ? data.error : REQUEST_FAILED;
    throw new ApiRequestError(error, res.status);
  }
  return (data ?? {}) as T;
}
