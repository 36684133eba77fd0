// The '🎉 Demo' badge on a channel or effect that only the running demo unlocks (spec/studio.md
// section 4).

import "./demo.css";

export const DEMO_BADGE = "🎉 Demo";

export function DemoBadge() {
  return <span className="demo-badge" title="Unlocked by your demo">{DEMO_BADGE}</span>;
}
