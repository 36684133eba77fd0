// The developer panel (spec/accounts.md sections 2 and 4): an admin-only corner button
// toggles it. It shows the studio's audio context state, the admin's access (unlimited or
// limited) and override with its switch, a waveform display toggle, an e-mail test and checklist
// (from the server's settings and mail log), "verify audio" (a 1 kHz tone rendered by the engine
// and measured) and "deploy to live" (POST /api/deploy, then the status every 5 s).

import { useCallback, useEffect, useId, useRef, useState } from "react";
import { toast } from "sonner";
import { deployReadyToasts } from "../../api/rules/admin";
import { ApiRequestError } from "../account/api";
import { useEntitlements, useSession } from "../account/hooks";
import { useAudio } from "../state/studio-context";
import { displayPrefs, useDisplayPrefs } from "../state/display-prefs";
import { adminApi } from "./admin-api";
import { MAIL_TRANSPORT_TEXT } from "./DashboardTools";
import { startDeploy, type DeployRun, type DeployView } from "./deploy";
import { shortDateTime } from "./format";
import { OverrideToggle } from "./OverrideToggle";
import { useAdminData } from "./use-admin-data";
import { VERIFY_TONE, verifyAudio } from "./verify-audio";
import "./admin.css";

const CONTEXT_POLL_MS = 500;

const loadSettings = adminApi.settings;
const loadNotifications = adminApi.notifications;

/** The studio's AudioContext state, read twice a second (the context is made on first Play). */
function useAudioContextState(): string {
  const audio = useAudio();
  const read = useCallback((): string => audio.context?.state ?? "none", [audio]);
  const [state, setState] = useState(read);
  useEffect(() => {
    const t = setInterval(() => setState(read()), CONTEXT_POLL_MS);
    return () => clearInterval(t);
  }, [read]);
  return state;
}

const CONTEXT_TEXT: Record<string, string> = {
  running: "running",
  suspended: "suspended",
  closed: "closed",
  interrupted: "interrupted",
  none: "none yet (made on the first Play)",
};

function Check({ ok, children }: { ok: boolean | null; children: React.ReactNode }) {
  return (
    <li data-ok={ok ?? undefined}>
      <span aria-hidden="true">{ok === null ? "•" : ok ? "✓" : "✗"} </span>
      {children}
    </li>
  );
}

function EmailSection() {
  const token = useSession((s) => s.token);
  const settings = useAdminData(loadSettings);
  const mail = useAdminData(loadNotifications);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const sendTest = async () => {
    setBusy(true);
    try {
      const a = await adminApi.emailTest(token);
      setResult({ ok: true, text: `Test message sent to ${a.to}` });
      mail.reload();
    } catch (err) {
      console.error("Email test failed", err);
      setResult({ ok: false, text: `❌ Failed: ${err instanceof ApiRequestError && !err.network ? err.message : "the test message was not sent"}` });
    } finally {
      setBusy(false);
    }
  };
  const s = settings.data;
  const local = s ? /\/\/(localhost|127\.|\[::1\])/.test(s.publicUrl) : false;
  const last = mail.data?.notifications[0];
  return (
    <section className="dev-section" aria-labelledby="dev-email">
      <h3 id="dev-email">Email</h3>
      <button type="button" className="button" onClick={sendTest} disabled={busy}>{busy ? "Sending..." : "Send test email"}</button>
      <p role="status" className="tool-result" data-ok={result?.ok}>{result?.text}</p>
      <h4>Checklist</h4>
      {settings.error && <p role="alert">{settings.error}</p>}
      {s && (
        <ul className="checklist">
          <Check ok={s.mail === "smtp"}>Transport: {MAIL_TRANSPORT_TEXT[s.mail]}</Check>
          <Check ok={!local}>Links in e-mails point to {s.publicUrl}{local ? " (a local address: set PUBLIC_URL)" : ""}</Check>
          <Check ok={mail.data ? mail.data.total > 0 : null}>
            {mail.data ? `${mail.data.total} sent${last ? `, last ${shortDateTime(last.sentAt)}` : ""}` : "Counting mails..."}
          </Check>
          <Check ok={result ? result.ok : null}>Test message {result ? (result.ok ? "delivered to the transport" : "failed") : "not sent yet"}</Check>
        </ul>
      )}
    </section>
  );
}

type VerifyState = { phase: "idle" } | { phase: "running" } | { phase: "done"; pass: boolean; text: string };

function VerifySection() {
  const [state, setState] = useState<VerifyState>({ phase: "idle" });
  const run = async () => {
    setState({ phase: "running" });
    try {
      const r = await verifyAudio();
      const figure = `peak at ${r.measuredHz.toFixed(1)} Hz (expected ${r.expectedHz} Hz ± ${r.toleranceHz.toFixed(1)} Hz), ${r.levelDb.toFixed(1)} dBFS`;
      setState({ phase: "done", pass: r.pass, text: `${r.pass ? "✓ Pass" : "✗ Fail"}: ${figure}, rendered in ${Math.round(r.renderMs)} ms` });
    } catch (err) {
      console.error("Verify audio failed", err);
      setState({ phase: "done", pass: false, text: `✗ Fail: ${err instanceof Error ? err.message : String(err)}` });
    }
  };
  return (
    <section className="dev-section" aria-labelledby="dev-verify">
      <h3 id="dev-verify">Verify audio</h3>
      <p className="help">Renders a {VERIFY_TONE.frequency} Hz sine for {VERIFY_TONE.seconds} s through the engine and finds its spectral peak.</p>
      <button type="button" className="button" onClick={run} disabled={state.phase === "running"}>
        {state.phase === "running" ? "Verifying..." : "Verify audio"}
      </button>
      <p role="status" className="tool-result verify-result" data-ok={state.phase === "done" ? state.pass : undefined}>
        {state.phase === "done" ? state.text : ""}
      </p>
    </section>
  );
}

function deployText(v: DeployView): React.ReactNode {
  switch (v.phase) {
    case "idle":
      return "";
    case "starting":
      return "Starting deploy...";
    case "building":
      return `Building...${v.status?.startedAt ? ` (started ${shortDateTime(v.status.startedAt)})` : ""}`;
    case "ready":
      return (
        <>
          ✓ Live{v.status.url ? <> at <a href={v.status.url} target="_blank" rel="noreferrer">{v.status.url}</a></> : ""}
          {v.status.finishedAt ? ` (${shortDateTime(v.status.finishedAt)})` : ""}
        </>
      );
    case "failed":
      return <>✗ {v.message}{v.detail ? <span className="muted"> ({v.detail})</span> : null}</>;
  }
}

function DeploySection() {
  const token = useSession((s) => s.token);
  const [view, setView] = useState<DeployView>({ phase: "idle" });
  const run = useRef<DeployRun | null>(null);
  useEffect(() => () => run.current?.stop(), []);
  const deploy = () => {
    run.current?.stop();
    const r = startDeploy({
      start: () => adminApi.deploy(token),
      status: () => adminApi.deployStatus(token),
      onUpdate: setView,
    });
    run.current = r;
    void r.done.then((v) => {
      if (v.phase === "ready") for (const t of deployReadyToasts(v.status)) toast.success(t.text, { duration: t.duration });
      else if (v.phase === "failed") toast.error(v.message);
    });
  };
  const busy = view.phase === "starting" || view.phase === "building";
  return (
    <section className="dev-section" aria-labelledby="dev-deploy">
      <h3 id="dev-deploy">Deploy</h3>
      <button type="button" className="button primary" onClick={deploy} disabled={busy}>
        {busy ? "Deploying..." : "Deploy to live"}
      </button>
      <p role="status" className="tool-result" data-ok={view.phase === "ready" ? true : view.phase === "failed" ? false : undefined}>
        {deployText(view)}
      </p>
    </section>
  );
}

function DevPanelBody({ id, titleId }: { id: string; titleId: string }) {
  const ent = useEntitlements();
  const context = useAudioContextState();
  const waveform = useDisplayPrefs((s) => s.waveformVisible);
  return (
    <section id={id} className="dev-panel" aria-labelledby={titleId}>
      <h2 id={titleId}>Developer panel</h2>
      <dl className="dev-status">
        <div><dt>Audio context</dt><dd data-state={context}>{CONTEXT_TEXT[context] ?? context}</dd></div>
        <div><dt>Admin status</dt><dd>{ent.hasUnlimitedAccess ? "Unlimited" : "Limited"}</dd></div>
        <div><dt>Admin override</dt><dd>{ent.adminOverride ? "ON" : "OFF"}</dd></div>
      </dl>
      <div className="dev-row">
        <OverrideToggle className="button" />
        <label className="switch">
          <input
            type="checkbox"
            role="switch"
            checked={waveform}
            onChange={(e) => displayPrefs.getState().setWaveformVisible(e.target.checked)}
          />
          Waveform display
        </label>
      </div>
      <VerifySection />
      <EmailSection />
      <DeploySection />
    </section>
  );
}

/** Mounted by the studio page; renders nothing for non-admins. */
export function DevPanel() {
  const isAdmin = useEntitlements().isAdmin;
  const [open, setOpen] = useState(false);
  const id = useId();
  if (!isAdmin) return null;
  return (
    <div className="dev-corner">
      {open && <DevPanelBody id={`${id}-panel`} titleId={`${id}-title`} />}
      <button
        type="button"
        className="dev-corner-button"
        aria-expanded={open}
        aria-controls={open ? `${id}-panel` : undefined}
        onClick={() => setOpen((v) => !v)}
      >
        Developer panel
      </button>
    </div>
  );
}
