// Steps 1-3 of the headphone check (left and right, mono test, polarity) and the offer shown when
// the output is mono. Each step plays its signal, asks its question and shows what the answer
// means as soon as it is given (a polite live region, so a screen reader reads it too).

import { useId, type ReactNode } from "react";
import {
  HEARD, MONO_ANSWERS, POLARITY_ANSWERS, judgeLeftRight, judgeMono, judgePolarity,
  type CheckAnswers,
} from "./answers";
import { applyIsochronic, applyMonaural } from "./beat-alternatives";
import { Choices, TestPlayButton } from "./controls";
import type { HeadphonePlayer } from "./headphone-player";
import {
  BINAURAL_IN_MONO, HEARD_LABELS, LEFT_RIGHT_INTRO, LEFT_RIGHT_RESULTS, MONO_INTRO, MONO_LABELS, MONO_QUESTION,
  MONO_RESULTS, OFFER_LABEL, PLAY_BOTH, POLARITY_INTRO, POLARITY_LABELS, POLARITY_QUESTION, POLARITY_RESULTS,
  USE_ISOCHRONIC, USE_MONAURAL, playTone, whereHeard,
} from "./messages";
import { monoFoldTest, oneSideTone, polarityTest } from "./signals";
import type { StoreApi } from "zustand/vanilla";
import type { StudioStore } from "../state/studio-store";

export interface StepProps {
  player: HeadphonePlayer;
  answers: CheckAnswers;
  answer(patch: Partial<CheckAnswers>): void;
}

const leftTone = (rate: number) => oneSideTone("left", rate);
const rightTone = (rate: number) => oneSideTone("right", rate);

function Result({ text, kind }: { text: string | null; kind?: string }) {
  return (
    <p className="hp-result" aria-live="polite" data-result={kind}>
      {text}
    </p>
  );
}

export function LeftRightStep({ player, answers, answer }: StepProps) {
  const result = answers.tone1 && answers.tone2 ? judgeLeftRight(answers.tone1, answers.tone2) : null;
  return (
    <>
      <p>{LEFT_RIGHT_INTRO}</p>
      <div className="hp-pair">
        <div className="hp-question">
          <TestPlayButton player={player} id="tone1" label={playTone(1)} build={leftTone} />
          <Choices legend={whereHeard(1)} options={HEARD} labels={HEARD_LABELS} value={answers.tone1} onChange={(tone1) => answer({ tone1 })} />
        </div>
        <div className="hp-question">
          <TestPlayButton player={player} id="tone2" label={playTone(2)} build={rightTone} />
          <Choices legend={whereHeard(2)} options={HEARD} labels={HEARD_LABELS} value={answers.tone2} onChange={(tone2) => answer({ tone2 })} />
        </div>
      </div>
      <Result text={result && LEFT_RIGHT_RESULTS[result]} kind={result ?? undefined} />
    </>
  );
}

export function MonoStep({ player, answers, answer, offer }: StepProps & { offer: ReactNode }) {
  const result = answers.mono ? judgeMono(answers.mono) : null;
  return (
    <>
      <p>{MONO_INTRO}</p>
      <TestPlayButton player={player} id="mono" label={PLAY_BOTH} build={monoFoldTest} />
      <Choices legend={MONO_QUESTION} options={MONO_ANSWERS} labels={MONO_LABELS} value={answers.mono} onChange={(mono) => answer({ mono })} />
      <Result text={result && MONO_RESULTS[result]} kind={result ?? undefined} />
      {result === "mono" && offer}
    </>
  );
}

export function PolarityStep({ player, answers, answer }: StepProps) {
  const result = answers.polarity ? judgePolarity(answers.polarity) : null;
  return (
    <>
      <p>{POLARITY_INTRO}</p>
      <TestPlayButton player={player} id="polarity" label={PLAY_BOTH} build={polarityTest} />
      <Choices
        legend={POLARITY_QUESTION}
        options={POLARITY_ANSWERS}
        labels={POLARITY_LABELS}
        value={answers.polarity}
        onChange={(polarity) => answer({ polarity })}
      />
      <Result text={result && POLARITY_RESULTS[result]} kind={result ?? undefined} />
    </>
  );
}

/** "Binaural beats vanish in mono" and the two ways out, through the studio store's actions. The
 *  confirmation is kept by the dialog, so the summary shows the same one. */
export function MonoOffer({ store, done, onDone }: { store: StoreApi<StudioStore>; done: string | null; onDone(message: string): void }) {
  const id = useId();
  return (
    <div className="hp-offer" role="group" aria-label={OFFER_LABEL} aria-describedby={id}>
      <p id={id}>{BINAURAL_IN_MONO}</p>
      <div className="hp-offer-buttons">
        <button type="button" className="button" onClick={() => onDone(applyIsochronic(store))}>
          {USE_ISOCHRONIC}
        </button>
        <button type="button" className="button" onClick={() => onDone(applyMonaural(store))}>
          {USE_MONAURAL}
        </button>
      </div>
      <p className="hp-switched" aria-live="polite">
        {done}
      </p>
    </div>
  );
}
