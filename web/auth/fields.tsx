// Labelled form inputs for the auth screens: every input has a visible label tied to it (so its
// accessible name is the label), and password inputs have a show/hide toggle (spec 2,
// /reset-password).

import { useId, useState } from "react";

interface FieldProps {
  label: string;
  value: string;
  onChange(value: string): void;
  autoComplete?: string;
  disabled?: boolean;
}

export function TextField({ label, value, onChange, autoComplete, disabled, type = "text" }: FieldProps & { type?: "text" | "email" }) {
  const id = useId();
  return (
    <div className="field auth-field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type={type}
        value={value}
        autoComplete={autoComplete}
        disabled={disabled}
        spellCheck={false}
        onChange={(e) => onChange(e.target.value)}
      />
    </div>
  );
}

export function PasswordField({ label, value, onChange, autoComplete = "current-password", disabled }: FieldProps) {
  const id = useId();
  const [shown, setShown] = useState(false);
  return (
    <div className="field auth-field">
      <label htmlFor={id}>{label}</label>
      <div className="password-row">
        <input
          id={id}
          type={shown ? "text" : "password"}
          value={value}
          autoComplete={autoComplete}
          disabled={disabled}
          onChange={(e) => onChange(e.target.value)}
        />
        <button
          type="button"
          className="toggle-visibility"
          aria-controls={id}
          aria-pressed={shown}
          aria-label={`${shown ? "Hide" : "Show"} ${label.toLowerCase()}`}
          onClick={() => setShown((v) => !v)}
        >
          {shown ? "Hide" : "Show"}
        </button>
      </div>
    </div>
  );
}
