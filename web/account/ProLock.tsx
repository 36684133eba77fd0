// The '🔒 Pro Only' overlay on a locked studio control (spec/studio.md section 4): it covers the
// blurred control and opens the plans page when clicked. `feature` names what it unlocks for
// screen readers ("Channel 2", "Ring Mod", "Waveform choice").

import { useNavigate } from "react-router-dom";

export const PRO_ONLY = "🔒 Pro Only";
export const PRICING_PATH = "/subscribe";

export function ProLock({ feature, compact = false }: { feature: string; compact?: boolean }) {
  const navigate = useNavigate();
  return (
    <button
      type="button"
      className={compact ? "pro-lock compact" : "pro-lock"}
      onClick={() => navigate(PRICING_PATH)}
      title={`${feature} needs Pro access. View the plans.`}
    >
      {PRO_ONLY}
      <span className="sr-only">: {feature}. View Pro plans</span>
    </button>
  );
}
