// A text box that edits a step value: what is typed stays a draft until Enter or leaving the box
// commits it, so a frequency typed digit by digit does not sweep the line through 8, 80 and 800
// Hz. Escape drops the draft. A draft belongs to the value it was typed over: when the value
// changes (another step selected, or the step edited elsewhere) the box shows the new value.

import { useState, type InputHTMLAttributes } from "react";

interface Props extends Omit<InputHTMLAttributes<HTMLInputElement>, "value" | "onChange" | "onBlur" | "onKeyDown"> {
  value: string;
  /** Called with the typed text; returns true when it was taken (the draft is then dropped). */
  onCommit(text: string): boolean | void;
}

export function CommitInput({ value, onCommit, ...rest }: Props) {
  const [typed, setTyped] = useState<{ over: string; text: string } | null>(null);
  const draft = typed?.over === value ? typed.text : null;
  const setDraft = (text: string | null) => setTyped(text === null ? null : { over: value, text });
  const commit = () => {
    if (draft === null) return;
    if (onCommit(draft) !== false) setDraft(null);
  };
  return (
    <input
      type="text"
      {...rest}
      value={draft ?? value}
      onChange={(e) => setDraft(e.target.value)}
      onBlur={commit}
      onKeyDown={(e) => {
        if (e.key === "Enter") commit();
        else if (e.key === "Escape" && draft !== null) {
          e.stopPropagation();
          setDraft(null);
        }
      }}
    />
  );
}
