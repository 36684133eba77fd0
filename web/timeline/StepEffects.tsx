// The effect changes of the selected step: each changed effect's switch, value (with its unit and
// range from the catalogue) and extras, and a list to add a change of any effect. The binaural
// beat, isochronic pulses and noise come first: the effects sessions over time use most.

import { useState } from "react";
import { EFFECTS, effectDef, type EffectDef, type EffectExtra } from "../../dsp/host/model/catalogue";
import type { ResolvedStep, StepEffect, Timeline } from "../../dsp/host/schema/timeline";
import { isEffectLocked, type StudioGate } from "../account/studio-gating";
import { CommitInput } from "./CommitInput";
import { clearStepEffect, setStepEffect, type Edited } from "./edit";
import {
  ADD_EFFECT, EFFECTS_LEGEND, EFFECT_CHOICE, NO_EFFECT_CHANGES, PRO_SUFFIX, VALUE_LABEL, effectField, effectRange, removeEffect, switchText,
} from "./messages";

/** The effects offered first in the list (then the rest in the studio's order). */
export const TIMELINE_EFFECTS_FIRST = ["binaural", "isoPulses", "noise"] as const;

const ORDERED: readonly EffectDef[] = [
  ...TIMELINE_EFFECTS_FIRST.map((id) => effectDef(id)!),
  ...EFFECTS.filter((d) => !(TIMELINE_EFFECTS_FIRST as readonly string[]).includes(d.id)),
];

const unitText = (def: EffectDef) => (def.unit ? ` (${def.unit === "-bit" ? "bits" : def.unit})` : "");

interface Props {
  timeline: Timeline;
  index: number;
  state: ResolvedStep;
  gate: StudioGate;
  onEdit(edit: Edited): void;
}

export function StepEffects({ timeline, index, state, gate, onEdit }: Props) {
  const step = timeline.steps[index];
  const changed = Object.keys(step.effects ?? {});
  const available = ORDERED.filter((d) => !changed.includes(d.id));
  const firstOpen = available.find((d) => !isEffectLocked(gate, d.id))?.id ?? "";
  const [choice, setChoice] = useState<string>(firstOpen);
  const picked = available.some((d) => d.id === choice && !isEffectLocked(gate, d.id)) ? choice : firstOpen;

  const set = (id: string, patch: StepEffect) => onEdit(setStepEffect(timeline, index, id, patch));
  const add = () => {
    const current = state.effects[picked];
    if (!current) return;
    set(picked, { enabled: true, value: current.value });
  };

  return (
    <fieldset className="tl-group">
      <legend>{EFFECTS_LEGEND}</legend>
      {changed.length === 0 && <p className="help">{NO_EFFECT_CHANGES}</p>}
      <div className="tl-effects">
        {changed.map((id) => {
          const def = effectDef(id);
          const fx = state.effects[id];
          if (!def || !fx) return null;
          return (
            <fieldset key={id} className="tl-effect" disabled={isEffectLocked(gate, id)}>
              <legend>{def.name}</legend>
              <label className="switch">
                <input
                  type="checkbox"
                  role="switch"
                  aria-label={effectField(def.name, "on/off")}
                  checked={fx.enabled}
                  onChange={(e) => set(id, { enabled: e.target.checked })}
                />
                <span className="switch-text">{switchText(fx.enabled)}</span>
              </label>
              <div className="field">
                <label htmlFor={`tl-fx-${id}-value`}>{VALUE_LABEL}{unitText(def)}</label>
                <CommitInput
                  id={`tl-fx-${id}-value`}
                  inputMode="decimal"
                  aria-label={effectField(def.name, `value${unitText(def)}`)}
                  aria-describedby={`tl-fx-${id}-range`}
                  value={String(fx.value)}
                  onCommit={(text) => {
                    const v = Number.parseFloat(text.replace(/[^0-9.-]/g, ""));
                    if (!Number.isFinite(v)) return false;
                    set(id, { value: v });
                  }}
                />
                <small id={`tl-fx-${id}-range`}>{effectRange(def.min, def.max)}</small>
              </div>
              {def.extras.map((x) => (
                <ExtraField key={x.key} def={def} extra={x} value={fx[x.key]} onChange={(v) => set(id, { [x.key]: v })} />
              ))}
              <button type="button" className="secondary" onClick={() => onEdit(clearStepEffect(timeline, index, id))}>
                {removeEffect(def.name)}
              </button>
            </fieldset>
          );
        })}
      </div>
      {available.length > 0 && (
        <div className="tl-add-effect">
          <label className="field">
            <span>{EFFECT_CHOICE}</span>
            <select value={picked || available[0].id} disabled={!picked} onChange={(e) => setChoice(e.target.value)}>
              {available.map((d) => {
                const locked = isEffectLocked(gate, d.id);
                return (
                  <option key={d.id} value={d.id} disabled={locked}>{d.name}{locked ? PRO_SUFFIX : ""}</option>
                );
              })}
            </select>
          </label>
          <button type="button" className="secondary" disabled={!picked} onClick={add}>{ADD_EFFECT}</button>
        </div>
      )}
    </fieldset>
  );
}

function ExtraField({ def, extra, value, onChange }: { def: EffectDef; extra: EffectExtra; value: unknown; onChange(v: string | number): void }) {
  const label = effectField(def.name, extra.label.toLowerCase());
  if (extra.kind === "enum") {
    return (
      <label className="field">
        <span>{extra.label}</span>
        <select aria-label={label} value={typeof value === "string" ? value : extra.default} onChange={(e) => onChange(e.target.value)}>
          {extra.options.map((o) => (
            <option key={o} value={o}>{o[0].toUpperCase() + o.slice(1)}</option>
          ))}
        </select>
      </label>
    );
  }
  return (
    <label className="field">
      <span>{extra.label}</span>
      <CommitInput
        inputMode="decimal"
        aria-label={label}
        value={String(typeof value === "number" ? value : extra.default)}
        onCommit={(text) => {
          const v = Number.parseFloat(text.replace(/[^0-9.-]/g, ""));
          if (!Number.isFinite(v)) return false;
          onChange(v);
        }}
      />
    </label>
  );
}
