// The admin routes as the web app calls them (api/routes/admin.ts lists them; spec/accounts.md
// section 7), each with the signed-in admin's bearer token. Answer types come from the API's
// contract in api/rules (type-only imports). The revoke route needs the session's CSRF token (GET
// /api/csrf-token) in an X-CSRF-Token header; revokeAccess fetches it for every call.

import type { AdminSettings, AdminStats, AdminUserRow, DeployStatus, GrantDto } from "../../api/rules/admin";
import { requestJson } from "../account/api";

export type { AdminSettings, AdminStats, AdminUserRow, GrantDto };

export interface NotificationRow {
  to: string;
  subject: string;
  sentAt: string;
}

export interface CheckAccessAnswer {
  hasAccess: boolean;
  accessType: string | null;
  accountExists: boolean;
}

export interface GrantRequest {
  email: string;
  planType: GrantDto["accessType"];
  durationHours: number;
  reason: string;
}

/** GET /api/deploy/status: one definition, shared with the server (type only). */
export type { DeployStatus };

const get = <T>(path: string, token: string | null) => requestJson<T>(path, { token });
const post = <T>(path: string, token: string | null, body: unknown = {}, headers?: Record<string, string>) =>
  requestJson<T>(path, { token, body, headers });

export const adminApi = {
  users: (token: string | null) => get<{ users: AdminUserRow[] }>("/api/admin/users", token).then((a) => a.users),
  stats: (token: string | null) => get<AdminStats>("/api/admin/stats", token),
  settings: (token: string | null) => get<AdminSettings>("/api/admin/settings", token),
  notifications: (token: string | null) =>
    get<{ total: number; notifications: NotificationRow[] }>("/api/admin/notifications", token),
  resendVerification: (token: string | null, email: string) =>
    post<{ success: boolean }>("/api/admin/resend-verification", token, { email }),
  emailTest: (token: string | null) => post<{ success: boolean; to: string }>("/api/admin/email-test", token),
  setOverride: (token: string | null, enabled: boolean) =>
    post<{ adminOverride: boolean }>("/api/admin/override", token, { enabled }).then((a) => a.adminOverride),

  grantAccess: (token: string | null, body: GrantRequest) =>
    post<{ success: boolean; grant: GrantDto }>("/api/admin/grant-temporary-access", token, body).then((a) => a.grant),
  revokeAccess: async (token: string | null, email: string) => {
    const csrf = await get<{ token: string }>("/api/csrf-token", token);
    return post<{ success: boolean; revoked: number }>("/api/admin/revoke-temporary-access", token, { email }, {
      "X-CSRF-Token": csrf.token,
    });
  },
  listGrants: (token: string | null) =>
    get<{ temporaryAccessList: GrantDto[] }>("/api/admin/temporary-access-list", token).then((a) => a.temporaryAccessList),
  checkAccess: (token: string | null, email: string) =>
    get<CheckAccessAnswer>(`/api/admin/check-user-access/${encodeURIComponent(email)}`, token),

  deploy: (token: string | null) => post<{ ok: boolean; id?: string }>("/api/deploy", token),
  deployStatus: (token: string | null) => get<DeployStatus>("/api/deploy/status", token),
};
