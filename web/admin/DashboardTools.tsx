// The dashboard's three tool views: Email Management (resend a verification e-mail,
// how many mails have gone out and through what), System Settings (which services are configured,
// never a secret) and Notifications (the mails sent most recently).

import { useState } from "react";
import { toast } from "sonner";
import { ApiRequestError } from "../account/api";
import { useSession } from "../account/hooks";
import { adminApi, type AdminSettings } from "./admin-api";
import { shortDateTime } from "./format";
import { useAdminData } from "./use-admin-data";

const loadSettings = adminApi.settings;
const loadNotifications = adminApi.notifications;

export const MAIL_TRANSPORT_TEXT: Record<AdminSettings["mail"], string> = {
  smtp: "SMTP server (SMTP_URL)",
  outbox: "Outbox folder: .eml files in DATA_DIR/outbox (SMTP_URL not set)",
};

function YesNo({ ok }: { ok: boolean }) {
  return <span className="yes-no" data-ok={ok}>{ok ? "✓ Configured" : "✗ Not configured"}</span>;
}

export function EmailManagement() {
  const token = useSession((s) => s.token);
  const settings = useAdminData(loadSettings);
  const mail = useAdminData(loadNotifications);
  const [email, setEmail] = useState("");
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);

  const resend = async (e: React.FormEvent) => {
    e.preventDefault();
    const address = email.trim();
    if (!address || busy) return;
    setBusy(true);
    try {
      await adminApi.resendVerification(token, address);
      const text = `Verification email sent to ${address}`;
      setResult({ ok: true, text });
      toast.success(text);
      setEmail("");
      mail.reload();
    } catch (err) {
      const text = err instanceof ApiRequestError && !err.network ? err.message : "Could not send the verification email";
      setResult({ ok: false, text });
      toast.error(text);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="tool-view">
      <h3>Email Management</h3>
      <p className="help">
        {mail.data ? `${mail.data.total} ${mail.data.total === 1 ? "mail" : "mails"} sent in total` : mail.error ?? "Counting mails..."}
        {settings.data && <> · delivered through {MAIL_TRANSPORT_TEXT[settings.data.mail]}</>}
      </p>
      <form className="inline-form" onSubmit={resend}>
        <label className="field">
          Resend verification email to
          <input type="email" autoComplete="off" value={email} onChange={(e) => setEmail(e.target.value)} />
        </label>
        <button type="submit" className="button primary" disabled={busy || !email.trim()}>
          {busy ? "Sending..." : "Resend verification"}
        </button>
      </form>
      <p role="status" className="tool-result" data-ok={result?.ok}>{result?.text}</p>
    </div>
  );
}

export function SystemSettings() {
  const { data, error, loading } = useAdminData(loadSettings);
  if (!data) return <div className="tool-view"><h3>System Settings</h3><p role="status">{loading ? "Loading settings..." : error}</p></div>;
  const p = data.payments;
  const rows: [string, React.ReactNode][] = [
    ["Public URL (links in e-mails, payment returns)", <code key="u">{data.publicUrl}</code>],
    ["Mail", MAIL_TRANSPORT_TEXT[data.mail]],
    ["Payments (STRIPE_SECRET_KEY)", <YesNo key="p" ok={p.configured} />],
    ["Payment webhook (STRIPE_WEBHOOK_SECRET)", <YesNo key="w" ok={p.webhook} />],
    ["Price: One Day Pass", <YesNo key="a" ok={p.prices.oneDay} />],
    ["Price: Monthly Personal", <YesNo key="b" ok={p.prices.monthly} />],
    ["Price: Commercial License", <YesNo key="c" ok={p.prices.commercial} />],
    ["Payment test server (STRIPE_API_BASE)", p.testServer ? "In use" : "Not in use"],
    ["Marketplace file storage", <YesNo key="s" ok={data.storage.configured} />],
    ["Largest upload", `${Math.round(data.storage.maxUploadBytes / 1_048_576)} MB`],
    ["Administrators from ADMIN_EMAILS", String(data.adminEmails)],
    ["Proxies trusted for X-Forwarded-For (TRUST_PROXY)", data.trustProxy > 0 ? String(data.trustProxy) : "None"],
  ];
  return (
    <div className="tool-view">
      <h3>System Settings</h3>
      <p className="help">What this server is configured with. Secrets are never shown.</p>
      <dl className="settings-list">
        {rows.map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

export function Notifications() {
  const { data, error, loading, reload } = useAdminData(loadNotifications);
  return (
    <div className="tool-view">
      <div className="tool-head">
        <h3>Notifications</h3>
        <button type="button" className="button" onClick={reload} disabled={loading}>{loading ? "Refreshing..." : "Refresh"}</button>
      </div>
      {error && <p role="alert">{error}</p>}
      {data && (
        <>
          <p className="help">{data.total} sent in total; the {Math.min(data.total, data.notifications.length)} most recent:</p>
          {data.notifications.length === 0 ? (
            <p>No notifications have been sent yet.</p>
          ) : (
            <ul className="notification-list" tabIndex={0} aria-label="Recent notifications">
              {data.notifications.map((n, i) => (
                <li key={`${n.sentAt}-${i}`}>
                  <strong>{n.subject}</strong>
                  <span>to {n.to}</span>
                  <span className="muted">{shortDateTime(n.sentAt)}</span>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </div>
  );
}
