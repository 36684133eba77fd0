// One effect card: on/off switch named after the effect, value slider with unit, description,
// and the extras the catalogue lists (enum selects, number sliders). Without Pro access the card
// is disabled and blurred under '🔒 Pro Only' (spec/studio.md section 6); the effects a running
// demo opens carry the '🎉 Demo' badge.

import { useStore } from "zustand";
import type { EffectDef, EffectExtra } from "../../dsp/host/model/catalogue";
import { useStudioGate } from "../account/hooks";
import { ProLock } from "../account/ProLock";
import { isDemoUnlocked, isEffectLocked } from "../account/studio-gating";
import { DemoBadge } from "../demo/DemoBadge";
import { useStudio } from "../state/studio-context";

function decimals(step: number): number {
  const s = String(step);
  return s.includes(".") ? s.length - s.indexOf(".") - 1 : 0;
}

/** "4.0 Hz", "65 %", "0.25 s", "8-bit". */
export function formatEffectValue(def: Pick<EffectDef, "unit" | "step">, value: number): string {
  const v = value.toFixed(decimals(def.step));
  if (def.unit === "-bit") return `${v}-bit`;
  return def.unit ? `${v} ${def.unit}` : v;
}

function Extra({ def, extra, value, disabled }: { def: EffectDef; extra: EffectExtra; value: unknown; disabled: boolean }) {
  const store = useStudio();
  const label = `${def.name} ${extra.label.toLowerCase()}`;
  if (extra.kind === "enum") {
    return (
      <label className="field extra">
        <span>{extra.label}</span>
        <select
          aria-label={label}
          value={typeof value === "string" ? value : extra.default}
          disabled={disabled}
          onChange={(e) => store.getState().setEffect(def.id, { [extra.key]: e.target.value })}
        >
          {extra.options.map((o) => (
            <option key={o} value={o}>{o[0].toUpperCase() + o.slice(1)}</option>
          ))}
        </select>
      </label>
    );
  }
  const v = typeof value === "number" ? value : extra.default;
  return (
    <label className="field extra">
      <span>{extra.label}: {v.toFixed(decimals(extra.step))}</span>
      <input
        type="range"
        aria-label={label}
        min={extra.min}
        max={extra.max}
        step={extra.step}
        value={v}
        disabled={disabled}
        onChange={(e) => store.getState().setEffect(def.id, { [extra.key]: Number(e.target.value) })}
      />
    </label>
  );
}

export function EffectCard({ def }: { def: EffectDef }) {
  const store = useStudio();
  const fx = useStore(store, (s) => s.effects[def.id]);
  const gate = useStudioGate();
  const locked = isEffectLocked(gate, def.id);
  if (!fx) return null;
  const descId = `fx-${def.id}-desc`;
  return (
    <article className="effect-card" data-enabled={fx.enabled} data-locked={locked} aria-label={def.name}>
      <header className="effect-head">
        <h3>{def.name}</h3>
        <label className="switch">
          <input
            type="checkbox"
            role="switch"
            aria-label={def.name}
            aria-describedby={descId}
            checked={fx.enabled}
            disabled={locked}
            onChange={(e) => store.getState().setEffect(def.id, { enabled: e.target.checked })}
          />
        </label>
      </header>
      {isDemoUnlocked(gate, def.id) && <DemoBadge />}
      <label className="field">
        <span className="effect-value">{formatEffectValue(def, fx.value)}</span>
        <input
          type="range"
          aria-label={`${def.name} value`}
          min={def.min}
          max={def.max}
          step={def.step}
          value={fx.value}
          disabled={locked}
          onChange={(e) => store.getState().setEffect(def.id, { value: Number(e.target.value) })}
        />
      </label>
      <p id={descId} className="effect-desc">{def.description}</p>
      {def.extras.length > 0 && (
        <div className="effect-extras">
          {def.extras.map((x) => (
            <Extra key={x.key} def={def} extra={x} value={fx[x.key]} disabled={locked} />
          ))}
        </div>
      )}
      {locked && <ProLock feature={def.name} />}
    </article>
  );
}
