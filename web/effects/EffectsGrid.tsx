// The effects grid (spec 2): the first 10 effects in one row, the rest in a second row. Each row
// wraps into as many columns as fit (app.css), so no card hides off to the side.

import { EFFECTS } from "../../dsp/host/model/catalogue";
import { EffectCard } from "./EffectCard";

export function EffectsGrid() {
  const rows = [EFFECTS.slice(0, 10), EFFECTS.slice(10)];
  return (
    <section className="panel effects" aria-labelledby="fx-title">
      <h2 id="fx-title">Effects</h2>
      <p className="help">Layer effects on the channels. Changes apply live while playing.</p>
      {rows.map((row, i) => (
        <div key={i} className="effects-row" role="group" aria-label={i === 0 ? "Effects, row 1" : "Effects, row 2"}>
          {row.map((def) => (
            <EffectCard key={def.id} def={def} />
          ))}
        </div>
      ))}
    </section>
  );
}
