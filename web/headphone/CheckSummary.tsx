// The end of the headphone check: every step's result in one list (or "Not checked"), the mono
// offer again when the output is mono, and "Check again".

import type { ReactNode } from "react";
import { checkResults, outputIsMono, type CheckAnswers } from "./answers";
import {
  LEFT_RIGHT_SHORT, MONO_SHORT, NOT_CHECKED, POLARITY_SHORT, SUMMARY_ROWS, balanceText,
} from "./messages";

export function CheckSummary({ answers, balance, offer }: { answers: CheckAnswers; balance: number; offer: ReactNode }) {
  const r = checkResults(answers);
  const rows: [string, string, string | null][] = [
    [SUMMARY_ROWS.leftRight, r.leftRight ? LEFT_RIGHT_SHORT[r.leftRight] : NOT_CHECKED, r.leftRight],
    [SUMMARY_ROWS.mono, r.mono ? MONO_SHORT[r.mono] : NOT_CHECKED, r.mono],
    [SUMMARY_ROWS.polarity, r.polarity ? POLARITY_SHORT[r.polarity] : NOT_CHECKED, r.polarity],
    [SUMMARY_ROWS.balance, balanceText(balance), null],
  ];
  return (
    <>
      <dl className="hp-summary">
        {rows.map(([name, value, kind]) => (
          <div key={name} data-result={kind ?? undefined}>
            <dt>{name}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {outputIsMono(r) && offer}
    </>
  );
}
