// Step 4 of the headphone check: per-ear level matching. A tone alternates between the ears
// (looped) and a slider sets the balance in dB until both sound equally loud. The balance is the
// listener's (dsp/host/schema/levels.ts: positive turns the left ear down, negative the right, never
// louder): this component only shows `balance` and reports changes through `onBalance`, and the
// tone is played through levels.ts's balanceGains, so it sounds as playback will.

import { useEffect, useId } from "react";
import { BALANCE_MAX_DB } from "../../dsp/host/schema/levels";
import { TestPlayButton } from "./controls";
import type { HeadphonePlayer } from "./headphone-player";
import { BALANCE_ENDS, BALANCE_INTRO, BALANCE_LABEL, PLAY_ALTERNATING, RESET_BALANCE, balanceText } from "./messages";
import { alternatingTone } from "./signals";

/** The slider's step in dB: finer than anyone hears between the ears (about 1 dB). */
export const BALANCE_STEP_DB = 0.5;

/** A slider value to a balance the levels model keeps: within ±BALANCE_MAX_DB, 0.1 dB. */
export function toBalance(value: number): number {
  const v = Number.isFinite(value) ? Math.min(BALANCE_MAX_DB, Math.max(-BALANCE_MAX_DB, value)) : 0;
  return Math.round(v * 10) / 10 || 0;
}

export function BalanceStep({ player, balance, onBalance }: {
  player: HeadphonePlayer;
  balance: number;
  onBalance(db: number): void;
}) {
  const id = useId();
  const value = toBalance(balance);

  // What plays follows the balance as it is set (from here or from anywhere else).
  useEffect(() => player.setBalance(value), [player, value]);

  return (
    <>
      <p>{BALANCE_INTRO}</p>
      <TestPlayButton player={player} id="balance" label={PLAY_ALTERNATING} build={alternatingTone} loop balance={value} />
      <div className="hp-balance">
        <div className="hp-balance-head">
          <label htmlFor={`${id}-slider`}>{BALANCE_LABEL}</label>
          <output htmlFor={`${id}-slider`} aria-hidden="true">{balanceText(value)}</output>
        </div>
        <input
          id={`${id}-slider`}
          type="range"
          min={-BALANCE_MAX_DB}
          max={BALANCE_MAX_DB}
          step={BALANCE_STEP_DB}
          value={value}
          aria-valuetext={balanceText(value)}
          aria-describedby={`${id}-ends`}
          onChange={(e) => onBalance(toBalance(Number(e.target.value)))}
        />
        <div id={`${id}-ends`} className="hp-balance-ends">
          <span>{BALANCE_ENDS.min}</span>
          <span>{BALANCE_ENDS.max}</span>
        </div>
        <button type="button" className="button hp-centre" disabled={value === 0} onClick={() => onBalance(0)}>
          {RESET_BALANCE}
        </button>
      </div>
    </>
  );
}
