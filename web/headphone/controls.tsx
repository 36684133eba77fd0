// The two controls every step of the headphone check is made of: a button that plays one test
// (and stops it when pressed again: its label says what a press does, like the studio's Play
// button), and a group of answers (native radios in a fieldset, so arrow keys move between them
// and the question is read with every option).

import { useId } from "react";
import { useStore } from "zustand";
import type { HeadphonePlayer, TestId } from "./headphone-player";
import { STOP } from "./messages";
import type { TestSignal } from "./signals";

export function TestPlayButton({ player, id, label, build, loop, balance }: {
  player: HeadphonePlayer;
  id: TestId;
  label: string;
  build: (sampleRate: number) => TestSignal;
  loop?: boolean;
  balance?: number;
}) {
  const playing = useStore(player.state, (s) => s.playing === id);
  return (
    <button
      type="button"
      className={`hp-play ${playing ? "playing" : ""}`}
      data-test={id}
      onClick={() => (playing ? player.stop() : player.play(id, build, { loop, balance }))}
    >
      <span className="hp-icon" aria-hidden="true">{playing ? "■" : "▶"}</span> {playing ? STOP : label}
    </button>
  );
}

export function Choices<T extends string>({ legend, options, labels, value, onChange }: {
  legend: string;
  options: readonly T[];
  labels: Record<T, string>;
  value: T | undefined;
  onChange(value: T): void;
}) {
  const name = useId();
  return (
    <fieldset className="hp-choices">
      <legend>{legend}</legend>
      {options.map((o) => (
        <label key={o} className="hp-choice">
          <input type="radio" name={name} value={o} checked={value === o} onChange={() => onChange(o)} />
          <span>{labels[o]}</span>
        </label>
      ))}
    </fieldset>
  );
}
