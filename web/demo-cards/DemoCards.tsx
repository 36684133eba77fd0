// The landing section 'Create Amazing Sounds Easily' (spec/studio.md section 2): four demo
// cards, each with its icon, tone, waveform, effects and a Try / Stop button. Every card plays
// through its own engine (AudioClient.demos), so cards play together, stop independently and
// leave the studio's own playback alone. Open to everyone, anonymous visitors included.

import { toast } from "sonner";
import { useStore } from "zustand";
import { effectDef } from "../../dsp/host/model/catalogue";
import type { Waveform } from "../../dsp/host/schema/state";
import { PLAYBACK_ERROR } from "../transport/PlayButton";
import { useAudio } from "../state/studio-context";
import { DEMO_CARDS, type DemoCardIcon, type DemoCardPreset } from "./presets";
import "./demo-cards.css";

/** One period of each waveform in a 24 x 12 box. */
const WAVE_PATHS: Record<Waveform, string> = {
  sine: "M0 6 C3 -2 9 -2 12 6 S21 14 24 6",
  square: "M0 10 V2 H12 V10 H24 V2",
  sawtooth: "M0 10 L12 2 V10 L24 2 V10",
  triangle: "M0 10 L6 2 L18 10 L24 2",
};

/** Line icons in a 24 x 24 box (drawn, so they look the same without an emoji font). */
const ICON_PATHS: Record<DemoCardIcon, string> = {
  bolt: "M13 2 L4 14 H11 L10 22 L20 9 H13 Z",
  lotus: "M12 4 C9 8 9 13 12 18 C15 13 15 8 12 4 Z M12 18 C8 18 4 15 3 10 C7 10 10 13 12 18 Z M12 18 C16 18 20 15 21 10 C17 10 14 13 12 18 Z M4 20 H20",
  globe: "M12 3 A9 9 0 1 0 12.01 3 Z M3 12 H21 M12 3 C8 7 8 17 12 21 M12 3 C16 7 16 17 12 21",
  bell: "M6 17 V11 A6 6 0 0 1 18 11 V17 L20 19 H4 Z M10 21 H14 M12 3 V5",
};

const capitalised = (w: string) => w[0].toUpperCase() + w.slice(1);

function DemoCard({ card }: { card: DemoCardPreset }) {
  const audio = useAudio();
  const playing = useStore(audio.demos.state, (s) => s.playing[card.id] === true);
  const titleId = `demo-card-${card.id}`;
  const effects = Object.entries(card.state.effects).filter(([, fx]) => fx.enabled).map(([id]) => effectDef(id)?.name ?? id);

  const onClick = () => {
    if (playing) {
      audio.demos.stop(card.id);
      return;
    }
    // play() creates or resumes the AudioContext before its first await: still inside this tap.
    audio.demos.play(card.id, card.state).catch((err: unknown) => {
      console.error(err);
      toast.error(PLAYBACK_ERROR);
    });
  };

  return (
    <article className="demo-card" data-playing={playing} aria-labelledby={titleId}>
      <div className="demo-card-head">
        <svg className="demo-card-icon" viewBox="0 0 24 24" width="28" height="28" aria-hidden="true">
          <path d={ICON_PATHS[card.icon]} />
        </svg>
        <h3 id={titleId}>{card.title}</h3>
      </div>
      <p className="demo-card-tone">
        <svg viewBox="-1 0 26 12" width="26" height="12" aria-hidden="true">
          <path d={WAVE_PATHS[card.waveform]} />
        </svg>
        {card.frequency} Hz · {capitalised(card.waveform)}
      </p>
      <p className="demo-card-desc">{card.description}</p>
      <ul className="demo-card-effects" aria-label={`${card.title} effects`}>
        {effects.map((name) => <li key={name}>{name}</li>)}
      </ul>
      <button
        type="button"
        className={`button ${playing ? "" : "primary"} demo-card-play`}
        aria-label={`${playing ? "Stop" : "Try"} ${card.title}`}
        onClick={onClick}
      >
        <span aria-hidden="true">{playing ? "■ " : "▶ "}</span>
        {playing ? "Stop" : "Try"}
      </button>
    </article>
  );
}

export function DemoCards() {
  return (
    <section className="panel demo-cards" aria-labelledby="demo-cards-title">
      <h2 id="demo-cards-title">Create Amazing Sounds Easily</h2>
      <p className="help">Start with a ready-made sound. Each card plays on its own, and you can layer several at once.</p>
      <div className="demo-card-grid">
        {DEMO_CARDS.map((card) => <DemoCard key={card.id} card={card} />)}
      </div>
    </section>
  );
}
