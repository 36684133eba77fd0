// The Quality Test panel (spec/studio.md section 2, toggled; spec/accounts.md section 2): hear
// 5 s of the current sound as the engine renders it (48 kHz, 16-bit stereo: what Export WAV
// writes), then the same audio through a low-bitrate codec (codec.ts says which, and so does the
// panel). High quality and Compressed are toggle buttons: pressing one starts it and stops the
// other, pressing the playing one stops it. Hidden until shown; inside the studio's fieldset, so
// it is locked with the rest of the studio for anonymous visitors.

import { useEffect, useState } from "react";
import { useStore } from "zustand";
import { useAudio, useStudio } from "../state/studio-context";
import { qualityPlayer, type QualityMode } from "./quality-player";
import { CLIP_SECONDS } from "./render-clip";
import "./quality.css";

const STATUS: Record<QualityMode, string> = {
  none: "Stopped.",
  hq: "Playing the high-quality render.",
  compressed: "Playing the compressed version.",
};

export function QualityPanel() {
  const player = qualityPlayer(useAudio(), useStudio());
  const { mode, busy, codec, problem } = useStore(player.state);
  const [open, setOpen] = useState(false);

  // Hiding the panel (or leaving the page) stops what it plays.
  useEffect(() => {
    if (!open) return;
    void player.prepare();
    return () => player.stop();
  }, [open, player]);

  const button = (which: Exclude<QualityMode, "none">, label: string) => (
    <button
      type="button"
      className="quality-play"
      aria-pressed={mode === which}
      aria-describedby="quality-status"
      disabled={busy}
      onClick={() => void player.toggle(which)}
    >
      <span className="quality-icon" aria-hidden="true">{mode === which ? "■" : "▶"}</span> {label}
    </button>
  );

  return (
    <section className="panel quality" aria-labelledby="quality-title" data-mode={mode}>
      <div className="quality-head">
        <h2 id="quality-title">Quality Test</h2>
        <button type="button" className="secondary" aria-expanded={open} aria-controls="quality-body" onClick={() => setOpen((v) => !v)}>
          {open ? "Hide Quality Test" : "Show Quality Test"}
        </button>
      </div>
      <div id="quality-body" hidden={!open}>
        <p className="help">
          Compare {CLIP_SECONDS} seconds of your current sound as the studio renders it (48 kHz, 16-bit stereo, the same
          bytes Export WAV writes) with the same audio after a low-bitrate codec. Switching keeps the position.
        </p>
        <p className="quality-codec">
          <strong>Compressed version:</strong> {codec ? codec.description : "checking what your browser can encode…"}
        </p>
        <div className="quality-buttons" role="group" aria-label="Quality Test playback">
          {button("hq", "High quality")}
          {button("compressed", "Compressed")}
        </div>
        <p id="quality-status" className="quality-status" data-problem={problem !== null}>
          {busy ? "Rendering…" : problem ?? STATUS[mode]}
        </p>
      </div>
    </section>
  );
}
