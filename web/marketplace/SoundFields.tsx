// The text fields both upload forms share (the /marketplace admin form and the studio's Upload
// to Store): title, description, price (USD, step 0.01, min 0), optionally the duration in
// minutes (1-59), category, tags (comma separated) and specs (optional). The forms are noValidate:
// their own checks give the spec's texts rather than the browser's bubbles.

import { UPLOAD_MAX_MINUTES, UPLOAD_MIN_MINUTES } from "../../api/rules/marketplace";
import type { UploadFields } from "./upload-form";

interface Props {
  idPrefix: string;
  values: UploadFields;
  onChange(patch: Partial<UploadFields>): void;
  categories: readonly string[];
  /** The admin form asks for the duration; the studio takes its own. */
  withMinutes: boolean;
  disabled?: boolean;
}

export function SoundFields({ idPrefix, values, onChange, categories, withMinutes, disabled }: Props) {
  const id = (name: string) => `${idPrefix}-${name}`;
  return (
    <div className="sound-fields">
      <div className="field wide">
        <label htmlFor={id("title")}>Title (required)</label>
        <input id={id("title")} type="text" required maxLength={200} value={values.title} disabled={disabled} onChange={(e) => onChange({ title: e.target.value })} />
      </div>
      <div className="field wide">
        <label htmlFor={id("description")}>Description</label>
        <textarea id={id("description")} rows={3} value={values.description} disabled={disabled} onChange={(e) => onChange({ description: e.target.value })} />
      </div>
      <div className="field">
        <label htmlFor={id("price")}>Price in USD (required, 0 for free)</label>
        <input
          id={id("price")}
          type="number"
          inputMode="decimal"
          required
          min={0}
          step={0.01}
          value={values.price}
          disabled={disabled}
          onChange={(e) => onChange({ price: e.target.value })}
        />
      </div>
      {withMinutes && (
        <div className="field">
          <label htmlFor={id("minutes")}>Duration in minutes (required, {UPLOAD_MIN_MINUTES}-{UPLOAD_MAX_MINUTES})</label>
          <input
            id={id("minutes")}
            type="number"
            inputMode="numeric"
            required
            min={UPLOAD_MIN_MINUTES}
            max={UPLOAD_MAX_MINUTES}
            step={1}
            value={values.minutes}
            disabled={disabled}
            onChange={(e) => onChange({ minutes: e.target.value })}
          />
        </div>
      )}
      <div className="field">
        <label htmlFor={id("category")}>Category</label>
        <select id={id("category")} value={values.category} disabled={disabled} onChange={(e) => onChange({ category: e.target.value })}>
          {categories.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
      </div>
      <div className={withMinutes ? "field" : "field wide"}>
        <label htmlFor={id("tags")}>Tags (comma separated)</label>
        <input id={id("tags")} type="text" value={values.tags} disabled={disabled} onChange={(e) => onChange({ tags: e.target.value })} />
      </div>
      <div className="field wide">
        <label htmlFor={id("specs")}>Specs (optional)</label>
        <textarea id={id("specs")} rows={2} value={values.specs} disabled={disabled} onChange={(e) => onChange({ specs: e.target.value })} />
      </div>
    </div>
  );
}
