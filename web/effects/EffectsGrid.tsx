// The effects grid (spec 2): the first 10 effects in one row, the rest in a second row. Each row
// wraps into as many columns as fit (app.css), so no card hides off to the side. Above it: the
// effects that are on, each with a one-tap off, a filter by kind (effect-kinds.ts) and a search
// box over names and descriptions; cards the filter leaves out are hidden, not unmounted.

import { useState } from "react";
import { useStore } from "zustand";
import { EFFECTS } from "../../dsp/host/model/catalogue";
import { useStudioGate } from "../account/hooks";
import { isEffectLocked } from "../account/studio-gating";
import { useStudio } from "../state/studio-context";
import { EffectCard, formatEffectValue } from "./EffectCard";
import { EFFECT_KINDS, kindOf, matchesSearch, type EffectKind } from "./effect-kinds";
import "./effects.css";

function EffectsOn() {
  const store = useStudio();
  const gate = useStudioGate();
  const effects = useStore(store, (s) => s.effects);
  const on = EFFECTS.filter((d) => effects[d.id]?.enabled);
  return (
    <div className="effects-on">
      <h3 id="fx-on-title">On now</h3>
      {on.length === 0 ? (
        <p className="help">No effect is on.</p>
      ) : (
        <ul aria-labelledby="fx-on-title">
          {on.map((d) => (
            <li key={d.id}>
              <span>
                {d.name} <span className="effect-value">{formatEffectValue(d, effects[d.id].value)}</span>
              </span>
              <button
                type="button"
                className="effect-off"
                aria-label={`Turn ${d.name} off`}
                disabled={isEffectLocked(gate, d.id)}
                onClick={() => store.getState().setEffect(d.id, { enabled: false })}
              >
                Off
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function EffectsGrid() {
  const [kind, setKind] = useState<EffectKind | "all">("all");
  const [search, setSearch] = useState("");
  const shown = (d: (typeof EFFECTS)[number]) => (kind === "all" || kindOf(d.id) === kind) && matchesSearch(d, search);
  const rows = [EFFECTS.slice(0, 10), EFFECTS.slice(10)];
  const count = EFFECTS.filter(shown).length;
  return (
    <section className="panel effects" aria-labelledby="fx-title">
      <h2 id="fx-title">Effects</h2>
      <p className="help">Layer effects on the channels. Changes apply live while playing.</p>
      <EffectsOn />
      <div className="effects-filter">
        <div className="effects-kinds" role="group" aria-label="Show effects of a kind">
          {[{ id: "all" as const, label: "All" }, ...EFFECT_KINDS].map((k) => (
            <button key={k.id} type="button" className="kind-chip" aria-pressed={kind === k.id} onClick={() => setKind(k.id)}>
              {k.label}
            </button>
          ))}
        </div>
        <label className="effects-search">
          <span className="sr-only">Search effects</span>
          <input type="search" placeholder="Search effects" value={search} onChange={(e) => setSearch(e.target.value)} />
        </label>
        <p className="help effects-count" aria-live="polite">
          {count === EFFECTS.length ? `${count} effects` : `${count} of ${EFFECTS.length} effects`}
        </p>
      </div>
      {rows.map((row, i) => (
        <div key={i} className="effects-row" role="group" aria-label={i === 0 ? "Effects, row 1" : "Effects, row 2"} hidden={!row.some(shown)}>
          {row.map((def) => (
            <div key={def.id} className="effect-slot" hidden={!shown(def)}>
              <EffectCard def={def} />
            </div>
          ))}
        </div>
      ))}
    </section>
  );
}
