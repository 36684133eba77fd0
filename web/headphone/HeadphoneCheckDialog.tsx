// The headphone check: a native modal <dialog> (showModal: the page behind is inert, Escape
// closes it) that walks through four steps (left and right, mono test, polarity, level match)
// and ends with the results and "Check again". Back and Next move freely, so any step can be
// skipped (it shows as "Not checked"). Each step's heading takes focus when it appears, so a
// screen reader starts there. Whatever plays stops on every step change and when it closes.
// Rendered into document.body, like the help dialog; the opener returns focus (HeadphoneCheckButton).

import { useEffect, useId, useRef, useState } from "react";
import { createPortal } from "react-dom";
import { useStore } from "zustand";
import { useAudio, useStudio } from "../state/studio-context";
import type { CheckAnswers } from "./answers";
import { BalanceStep } from "./BalanceStep";
import { CheckSummary } from "./CheckSummary";
import { headphonePlayer } from "./headphone-player";
import {
  BACK, CHECK_AGAIN, CHECK_INTRO, CHECK_TITLE, CLOSE_LABEL, DONE, NEXT, NOT_PLAYING, PLAYING_LOOP, SHOW_RESULTS,
  STEP_TITLES, SUMMARY_TITLE, playingPart, stepHeading,
} from "./messages";
import { LeftRightStep, MonoOffer, MonoStep, PolarityStep } from "./steps";
import "./headphone.css";

const SUMMARY = STEP_TITLES.length;

export function HeadphoneCheckDialog({ onClose, balance, onBalance }: {
  onClose(): void;
  balance: number;
  onBalance(db: number): void;
}) {
  const store = useStudio();
  const player = headphonePlayer(useAudio());
  const dialog = useRef<HTMLDialogElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const [step, setStep] = useState(0);
  const [answers, setAnswers] = useState<CheckAnswers>({});
  const [switched, setSwitched] = useState<string | null>(null);
  const playing = useStore(player.state);
  const ids = useId();

  useEffect(() => {
    const d = dialog.current;
    if (d && !d.open) d.showModal();
    return () => player.stop();
  }, [player]);

  // A new step: nothing of the last one keeps playing, and its heading is where reading starts.
  useEffect(() => {
    player.stop();
    heading.current?.focus();
  }, [step, player]);

  const answer = (patch: Partial<CheckAnswers>) => setAnswers((a) => ({ ...a, ...patch }));
  const again = () => {
    setAnswers({});
    setSwitched(null);
    setStep(0);
  };
  const offer = <MonoOffer store={store} done={switched} onDone={setSwitched} />;
  const status =
    playing.playing === "balance" ? PLAYING_LOOP : playing.playing && playing.part !== null ? playingPart(playing.part) : NOT_PLAYING;

  const stepProps = { player, answers, answer };
  const body = [
    <LeftRightStep key="lr" {...stepProps} />,
    <MonoStep key="mono" {...stepProps} offer={offer} />,
    <PolarityStep key="polarity" {...stepProps} />,
    <BalanceStep key="balance" player={player} balance={balance} onBalance={onBalance} />,
    <CheckSummary key="summary" answers={answers} balance={balance} offer={offer} />,
  ][step];

  return createPortal(
    <dialog
      ref={dialog}
      className="headphone-dialog"
      aria-labelledby={`${ids}-title`}
      onClose={onClose}
      // A click on the backdrop lands on the dialog element itself.
      onClick={(e) => {
        if (e.target === dialog.current) dialog.current.close();
      }}
    >
      <div className="hp-frame">
        <div className="hp-head">
          <h2 id={`${ids}-title`}>{CHECK_TITLE}</h2>
          <button type="button" className="hp-close" onClick={() => dialog.current?.close()} aria-label={CLOSE_LABEL}>
            <span aria-hidden="true">×</span>
          </button>
        </div>
        {step === 0 && <p className="hp-intro">{CHECK_INTRO}</p>}
        <ol className="hp-progress" aria-hidden="true">
          {STEP_TITLES.map((t, i) => (
            <li key={t} data-state={i < step ? "done" : i === step ? "current" : "todo"}>
              {t}
            </li>
          ))}
        </ol>
        <section className="hp-step" aria-labelledby={`${ids}-step`} data-step={step}>
          <h3 id={`${ids}-step`} ref={heading} tabIndex={-1}>
            {step < SUMMARY ? stepHeading(step) : SUMMARY_TITLE}
          </h3>
          {body}
        </section>
        <p className="hp-status" role="status">
          {status}
        </p>
        <div className="hp-nav">
          {step > 0 && step < SUMMARY && (
            <button type="button" className="button" onClick={() => setStep(step - 1)}>
              {BACK}
            </button>
          )}
          {step < SUMMARY ? (
            <button type="button" className="button primary" onClick={() => setStep(step + 1)}>
              {step === SUMMARY - 1 ? SHOW_RESULTS : NEXT}
            </button>
          ) : (
            <>
              <button type="button" className="button" onClick={again}>
                {CHECK_AGAIN}
              </button>
              <button type="button" className="button primary" onClick={() => dialog.current?.close()}>
                {DONE}
              </button>
            </>
          )}
        </div>
      </div>
    </dialog>,
    document.body,
  );
}
