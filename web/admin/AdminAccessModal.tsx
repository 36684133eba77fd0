// The Admin Access Control modal (spec/accounts.md sections 2, 4, 5, 8 and 9), opened and closed
// by its parent (the user menu's Temp Access): customer e-mail, plan, custom days, optional
// reason; Quick Check Access, Grant, Revoke, Copy Support Text, Reset Access; the list of grants
// (shown or hidden, Refresh) with time left and a revoke button for active ones. Every revoke
// sends the session's CSRF token. A native <dialog> shown with showModal: labelled by its heading,
// Escape closes it, the parent returns focus. Results go to a toast and, since the page behind a
// modal dialog is inert, to a status line inside the dialog as well.

import { useCallback, useEffect, useId, useRef, useState } from "react";
import { toast } from "sonner";
import { ADMIN_TEXT, TEMP_ACCESS_PLANS, type TempAccessType } from "../../api/rules/admin";
import { ApiRequestError, REQUEST_FAILED } from "../account/api";
import { useSession } from "../account/hooks";
import { adminApi } from "./admin-api";
import { shortDateTime } from "./format";
import {
  CUSTOM_DAYS_MAX, CUSTOM_DAYS_MIN, DEFAULT_GRANT_REASON, EMPTY_FORM, PLAN_OPTIONS, checkEmail, grantRequest, grantSuccessText,
  grantTimeLeft, isActiveGrant, supportText, type AccessForm,
} from "./temp-access";
import { useAdminData } from "./use-admin-data";
import "./admin.css";

export const GRANT_TOAST_MS = 6000;
const loadGrants = adminApi.listGrants;
const TICK_MS = 30_000;

type Busy = null | "check" | "grant" | "revoke" | { row: string };
interface Note { text: string; tone: "ok" | "error" | "info" }

/** The server's error text, or undefined for the spec's generic fallback. */
function serverError(err: unknown): string | undefined {
  if (err instanceof ApiRequestError && !err.network && err.message && err.message !== REQUEST_FAILED) return err.message;
  return undefined;
}

export function AdminAccessModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const token = useSession((s) => s.token);
  const dialog = useRef<HTMLDialogElement>(null);
  const emailInput = useRef<HTMLInputElement>(null);
  const titleId = useId();
  const [form, setForm] = useState<AccessForm>(EMPTY_FORM);
  const [busy, setBusy] = useState<Busy>(null);
  const [note, setNote] = useState<Note | null>(null);
  const [listVisible, setListVisible] = useState(true);
  const [now, setNow] = useState(() => Date.now());

  const say = useCallback((text: string, tone: Note["tone"], duration?: number) => {
    setNote({ text, tone });
    const opts = { duration, className: "multiline-toast" };
    if (tone === "error") toast.error(text, opts);
    else if (tone === "ok") toast.success(text, opts);
    else toast.info(text, opts);
  }, []);

  // The list is read when the dialog opens with it visible, when it is shown, on Refresh and
  // after every grant or revoke.
  const onListError = useCallback(() => say(ADMIN_TEXT.listFailed, "error"), [say]);
  const list = useAdminData(loadGrants, open && listVisible, onListError);

  // Shown and hidden by the parent.
  useEffect(() => {
    const d = dialog.current;
    if (!d) return;
    if (open && !d.open) {
      d.showModal();
      emailInput.current?.focus();
    } else if (!open && d.open) d.close();
  }, [open]);

  useEffect(() => {
    if (!open) return;
    const t = setInterval(() => setNow(Date.now()), TICK_MS);
    return () => clearInterval(t);
  }, [open]);

  const set = <K extends keyof AccessForm>(key: K, value: AccessForm[K]) => setForm((f) => ({ ...f, [key]: value }));
  const emailEmpty = !form.email.trim();

  const quickCheck = async () => {
    const email = checkEmail(form);
    if (!email.ok) return say(ADMIN_TEXT.checkNeedsEmail, "error");
    setBusy("check");
    try {
      const a = await adminApi.checkAccess(token, email.value);
      if (a.hasAccess) say(ADMIN_TEXT.hasAccess(email.value, a.accessType ?? "unknown"), "ok");
      else say(ADMIN_TEXT.noAccess(email.value), "info");
    } catch (err) {
      console.error("Check access failed", err);
      say(ADMIN_TEXT.checkFailed(serverError(err)), "error");
    } finally {
      setBusy(null);
    }
  };

  const grant = async (e: React.FormEvent) => {
    e.preventDefault();
    if (busy) return;
    const req = grantRequest(form);
    if (!req.ok) return say(req.error, "error");
    setBusy("grant");
    try {
      const g = await adminApi.grantAccess(token, req.value);
      say(grantSuccessText(g), "ok", GRANT_TOAST_MS);
      setForm((f) => ({ ...EMPTY_FORM, planType: f.planType })); // spec 4: the plan is kept
      list.reload();
    } catch (err) {
      console.error("Grant failed", err);
      say(ADMIN_TEXT.grantFailed(serverError(err)), "error");
    } finally {
      setBusy(null);
    }
  };

  const revoke = async (address: string, row: boolean) => {
    if (busy) return;
    const email = checkEmail({ email: address });
    if (!email.ok) return say(email.error, "error");
    setBusy(row ? { row: email.value } : "revoke");
    try {
      await adminApi.revokeAccess(token, email.value);
      say(ADMIN_TEXT.revoked(email.value), "ok");
      list.reload();
    } catch (err) {
      console.error("Revoke failed", err);
      say(ADMIN_TEXT.revokeFailed(serverError(err)), "error");
    } finally {
      setBusy(null);
    }
  };

  const copySupport = async () => {
    try {
      await navigator.clipboard.writeText(supportText(form, window.location.origin));
      say(ADMIN_TEXT.supportCopied, "ok");
    } catch (err) {
      console.error("Copy failed", err);
      say("Could not copy to the clipboard", "error");
    }
  };

  const toggleList = () => setListVisible((v) => !v);

  const listId = `${titleId}-list`;
  const grants = list.data;
  const rowBusy = (email: string) => typeof busy === "object" && busy !== null && busy.row === email;

  return (
    <dialog ref={dialog} className="admin-dialog" aria-labelledby={titleId} onClose={onClose}>
      <div className="admin-dialog-head">
        <h2 id={titleId}>Admin Access Control</h2>
        <button type="button" className="button" onClick={() => dialog.current?.close()}>Close</button>
      </div>
      <p className="help">
        Give a customer full access for a limited time. They are e-mailed when it is granted; it ends by itself and can be revoked.
      </p>
      <form className="access-form" onSubmit={grant} noValidate>
        <label className="field">
          Customer email
          <input ref={emailInput} type="email" autoComplete="off" value={form.email} onChange={(e) => set("email", e.target.value)} />
        </label>
        <label className="field">
          Plan
          <select value={form.planType} onChange={(e) => set("planType", e.target.value as TempAccessType)}>
            {PLAN_OPTIONS.map((o) => (
              <option key={o.value} value={o.value}>{o.label}</option>
            ))}
          </select>
        </label>
        {form.planType === "custom" && (
          <label className="field">
            Days ({CUSTOM_DAYS_MIN}-{CUSTOM_DAYS_MAX})
            <input type="number" inputMode="numeric" min={CUSTOM_DAYS_MIN} max={CUSTOM_DAYS_MAX} step={1} value={form.days} onChange={(e) => set("days", e.target.value)} />
          </label>
        )}
        <label className="field wide">
          Reason (optional)
          <textarea rows={2} maxLength={500} placeholder={DEFAULT_GRANT_REASON} value={form.reason} onChange={(e) => set("reason", e.target.value)} />
        </label>
        <div className="access-actions wide">
          <button type="button" className="button" onClick={quickCheck} disabled={busy !== null}>
            {busy === "check" ? "Checking..." : "Quick Check Access"}
          </button>
          <button type="submit" className="button primary" disabled={busy !== null || emailEmpty}>
            {busy === "grant" ? ADMIN_TEXT.granting : "Grant Access"}
          </button>
          <button type="button" className="button danger" onClick={() => void revoke(form.email, false)} disabled={busy !== null || emailEmpty}>
            {busy === "revoke" ? ADMIN_TEXT.revoking : "Revoke Access"}
          </button>
          <button type="button" className="button" onClick={copySupport}>Copy Support Text</button>
          <button type="button" className="button" onClick={() => setForm(EMPTY_FORM)} disabled={busy !== null}>Reset Access</button>
        </div>
      </form>
      <p className="access-note" role="status" data-tone={note?.tone}>{note?.text}</p>

      <section className="grants" aria-labelledby={`${titleId}-grants`}>
        <div className="grants-head">
          <h3 id={`${titleId}-grants`}>Granted access</h3>
          <button type="button" className="button" aria-expanded={listVisible} aria-controls={listId} onClick={toggleList}>
            {listVisible ? "Hide list" : "Show list"}
          </button>
          <button type="button" className="button" onClick={list.reload} disabled={list.loading}>
            {list.loading ? "Refreshing..." : "Refresh"}
          </button>
        </div>
        <div id={listId} hidden={!listVisible}>
          {grants && grants.length === 0 && <p className="help">No temporary access has been granted yet.</p>}
          {grants && grants.length > 0 && (
            <ul className="grant-list" tabIndex={0} aria-label="Granted access, newest first">
              {grants.map((g) => {
                const elapsed = Math.max(0, now - list.at);
                const active = isActiveGrant(g, elapsed);
                const left = grantTimeLeft(g, elapsed);
                return (
                  <li key={g.id} data-active={active}>
                    <div className="grant-main">
                      <strong className="grant-email">{g.email}</strong>
                      <span>{TEMP_ACCESS_PLANS[g.accessType]?.label ?? g.planName}</span>
                      <span className="grant-status" data-active={active}>
                        {active ? `✓ active, ${left} left` : `✗ ${g.status === "active" ? "expired" : g.status}`}
                      </span>
                    </div>
                    <div className="grant-meta">
                      <span>Granted {shortDateTime(g.createdAt)}</span>
                      {g.reason && <span>{g.reason}</span>}
                    </div>
                    {active && (
                      <button
                        type="button"
                        className="button danger small"
                        aria-label={`Revoke access for ${g.email}`}
                        onClick={() => void revoke(g.email, true)}
                        disabled={busy !== null}
                      >
                        {rowBusy(g.email) ? ADMIN_TEXT.revoking : "Revoke"}
                      </button>
                    )}
                  </li>
                );
              })}
            </ul>
          )}
        </div>
      </section>
    </dialog>
  );
}
