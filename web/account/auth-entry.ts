// The entry rules of the auth screen (spec/accounts.md section 2): which mode /auth or
// /verify-email opens in, which toast greets the visitor, what gets prefilled and where a
// successful sign-in goes. Pure: parsed from the path and the query string only.

import { TEXT } from "./messages";

export const AUTH_MODES = [
  "sign_in", "sign_up", "forgot_password", "update_password", "check_email", "verify_processing",
] as const;
export type AuthMode = (typeof AUTH_MODES)[number];

/** Modes a link may open directly through ?view= (the other two need context first). */
const VIEW_MODES: readonly AuthMode[] = ["sign_in", "sign_up", "forgot_password", "update_password"];

export interface EntryToast {
  kind: "success" | "error" | "info";
  text: string;
}

export interface AuthEntry {
  mode: AuthMode;
  /** A verification token to redeem at once (mode verify_processing). */
  verifyToken: string | null;
  toasts: EntryToast[];
  email: string;
  /** Where a successful sign-in goes. */
  afterSignIn: string;
}

/** A same-origin path, or null: never an absolute or protocol-relative URL (open redirects). */
export function safeReturnPath(value: string | null | undefined): string | null {
  if (!value) return null;
  const v = value.trim();
  if (!v.startsWith("/") || v.startsWith("//") || v.startsWith("/\\")) return null;
  for (let i = 0; i < v.length; i++) if (v.charCodeAt(i) < 0x20) return null;
  return v;
}

export function parseAuthEntry(pathname: string, search: string): AuthEntry {
  const q = new URLSearchParams(search);
  const toasts: EntryToast[] = [];
  let mode: AuthMode = "sign_in";
  let verifyToken: string | null = null;

  const view = q.get("view");
  if (view && (VIEW_MODES as readonly string[]).includes(view)) mode = view as AuthMode;

  const path = pathname.replace(/\/+$/, "") || "/";
  const token = q.get("token");
  if (path === "/verify-email") {
    if (token) verifyToken = token;
    else toasts.push({ kind: "error", text: TEXT.verifiedFalse });
  }
  const verify = q.get("verify");
  if (!verifyToken && verify && verify !== "true" && verify !== "false") verifyToken = verify;
  if (verifyToken) mode = "verify_processing";

  const verified = q.get("verified");
  if (verified === "true" || verified === "false") {
    toasts.push(verified === "true" ? { kind: "success", text: TEXT.verifySuccess } : { kind: "error", text: TEXT.verifiedFalse });
    if (!verifyToken) mode = "sign_in";
  }

  const message = q.get("message");
  if (message === "update-payment") toasts.push({ kind: "info", text: TEXT.updatePaymentSignIn });

  const returnUrl = safeReturnPath(q.get("returnUrl"));
  const afterSignIn = returnUrl ?? (message === "update-payment" ? "/update-payment" : "/");
  return { mode, verifyToken, toasts, email: q.get("email") ?? "", afterSignIn };
}

/** Modes in which an already signed-in visitor is sent to / with the welcome toast. */
export function redirectsSignedIn(mode: AuthMode): boolean {
  return mode === "sign_in" || mode === "sign_up" || mode === "forgot_password" || mode === "check_email";
}
