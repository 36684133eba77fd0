// The demo offer in the studio for free signed-in users (hidden for Pro; spec/accounts.md
// sections 4, 6 and 8): 'Start 10-minute demo' (POST /api/demo/start), then while the
// server-confirmed demo runs a mm:ss countdown, and a warning banner under 120 seconds. At zero
// the store expires the demo (toast) and the gate locks channel 2 and the effects again.

import { Link } from "react-router-dom";
import { toast } from "sonner";
import { DEMO_EFFECTS, DEMO_CHANNELS } from "../../api/rules/plans";
import { effectDef } from "../../dsp/host/model/catalogue";
import { useSession } from "../account/hooks";
import { PRICING_PATH } from "../account/ProLock";
import { PAY_TEXT } from "../payments/messages";
import { DEMO_MINUTES, formatCountdown, isDemoWarning } from "./countdown";
import { demoStore, useDemo } from "./demo-singleton";
import "./demo.css";

const EFFECT_NAMES = DEMO_EFFECTS.map((id) => effectDef(id)?.name ?? id);
const UNLOCKS = `channels 1-${DEMO_CHANNELS} and ${EFFECT_NAMES.slice(0, -1).join(", ")} and ${EFFECT_NAMES[EFFECT_NAMES.length - 1]}`;

export function DemoPanel() {
  const token = useSession((s) => s.token);
  const phase = useDemo((s) => s.phase);
  const canStart = useDemo((s) => s.canStart);
  const starting = useDemo((s) => s.starting);
  const secondsLeft = useDemo((s) => s.secondsLeft);

  const start = async () => {
    if (!token) return;
    const result = await demoStore().getState().start(token);
    if (!result.text) return;
    if (result.ok) toast.success(result.text, { id: "demo" });
    else toast.error(result.text, { id: "demo" });
  };

  if (phase === "active") {
    const ms = secondsLeft * 1000;
    return (
      <section className="panel demo-panel" data-phase="active" aria-labelledby="demo-title">
        <div className="demo-row">
          <div>
            <h2 id="demo-title">🎉 Demo active</h2>
            <p className="help">Pro features unlocked: {UNLOCKS}.</p>
          </div>
          <p className="demo-timer" role="timer">
            <span className="sr-only">Demo time left: </span>
            {formatCountdown(ms)}
          </p>
        </div>
        {isDemoWarning(ms) && (
          <p className="demo-warning" role="alert">
            Less than 2 minutes of your demo left. <Link to={PRICING_PATH}>Upgrade to keep all features</Link>
          </p>
        )}
      </section>
    );
  }

  if (phase === "expired") {
    return (
      <section className="panel demo-panel" data-phase="expired" aria-labelledby="demo-title">
        <div className="demo-row">
          <div>
            <h2 id="demo-title">Demo ended</h2>
            <p className="help">{PAY_TEXT.demoUsed}</p>
          </div>
          <Link className="button primary" to={PRICING_PATH}>Get Pro Access</Link>
        </div>
      </section>
    );
  }

  if (phase !== "not_started" || !canStart) return null;
  return (
    <section className="panel demo-panel" data-phase="offer" aria-labelledby="demo-title">
      <div className="demo-row">
        <div>
          <h2 id="demo-title">Try Pro free for {DEMO_MINUTES} minutes</h2>
          <p className="help">One demo per account unlocks {UNLOCKS}.</p>
        </div>
        <button type="button" className="button primary" onClick={() => void start()} disabled={starting} aria-busy={starting}>
          {starting && <span className="spinner" aria-hidden="true" />}
          {starting ? " Starting demo..." : `Start ${DEMO_MINUTES}-minute demo`}
        </button>
      </div>
    </section>
  );
}
