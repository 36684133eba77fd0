// The session as text: SBaGen's schedule format (dsp/host/sbg), shown for the studio's current
// session and kept in step with the editor. Edited text is applied by the import rule of
// readSchedule (voices-edit.ts): a schedule the four channels play exactly (parseSbg, no warnings) stays in the
// channels; anything else is read as SBaGen plays it, in voices (readSbgVoices). Nothing changes
// while it has errors, which are listed by line (each one selects its line in the box).
// Import reads an .sbg file the same way (a file with errors lands in the box, so its line
// numbers can be followed); Export downloads the text. The view is a disclosure: the text is only
// written while it is open, so a slider drag elsewhere never pays for it.

import { useMemo, useRef, useState } from "react";
import { useStore } from "zustand";
import { SBG_MAX_CHARS, SBG_NOT_TEXT, SBG_TOO_LONG, toSbg, type SbgIssue } from "../../dsp/host/sbg/index";
import { presetData } from "../../dsp/host/schema/preset";
import { saveAs } from "../export/download";
import { useAudio, useStudio } from "../state/studio-context";
import { lineRange } from "./line-range";
import {
  APPLY_TEXT, ERRORS_TITLE, EXPORT_SBG, IMPORT_HELP, IMPORT_SBG, RESET_TEXT, SBG_FILE_NAME, SBG_IMPORTED, soundtrackNeeded, SBG_NOT_IMPORTED, TEXT_APPLIED,
  TEXT_HAS_ERRORS, TEXT_VIEW_HELP, TEXT_VIEW_TITLE, WARNINGS_TITLE, lineMessage,
} from "./messages";
import { readSchedule } from "./voices-edit";
import { chooseSoundtrack, soundtrackStore } from "../audio/soundtrack-store";

interface Report {
  status: string;
  errors: SbgIssue[];
  warnings: SbgIssue[];
  /** A file refused whole (too long, binary): its error stands without a draft in the box. */
  alone?: boolean;
}

/** Files chosen beside a schedule: .sbgf texts by name, and audio files (a soundtrack). */
interface ScheduleFiles {
  texts: Map<string, string>;
  audio: File[];
}

const AUDIO_FILE = /\.(wav|flac|ogg|oga|mp3)$/i;

export function TimelineText() {
  const store = useStudio();
  const audio = useAudio();
  const channels = useStore(store, (s) => s.channels);
  const effects = useStore(store, (s) => s.effects);
  const duration = useStore(store, (s) => s.duration);
  const timeline = useStore(store, (s) => s.timeline);
  const voices = useStore(store, (s) => s.voices);
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState<{ over: string; text: string } | null>(null);
  const [report, setReport] = useState<Report | null>(null);
  const box = useRef<HTMLTextAreaElement>(null);
  const file = useRef<HTMLInputElement>(null);

  const written = useMemo(
    () => (open ? writtenText({ channels, effects, duration, timeline, voices }) : { text: "", warnings: [] as SbgIssue[] }),
    [open, channels, effects, duration, timeline, voices],
  );
  // A draft belongs to the text it was typed over: an edit in the editor shows the new text.
  const draft = typed?.over === written.text ? typed.text : null;
  const text = draft ?? written.text;

  const apply = (source: string, name: string | null, files: ScheduleFiles = { texts: new Map(), audio: [] }) => {
    const parsed = readSchedule(source, { readFile: (n) => files.texts.get(n) ?? files.texts.get(n.split(/[\\/]/).pop() ?? n) ?? null });
    if (!parsed.ok) {
      const status = name ? SBG_NOT_IMPORTED(name) : TEXT_HAS_ERRORS;
      if (name && parsed.errors.some((e) => e.message === SBG_TOO_LONG || e.message === SBG_NOT_TEXT)) {
        setReport({ status, errors: parsed.errors, warnings: [], alone: true });
        return;
      }
      setReport({ status, errors: parsed.errors, warnings: parsed.warnings });
      // The draft is typed over the text the open view shows: an import may have just opened it,
      // so that text is written here rather than taken from this render's (closed) `written`.
      setTyped({ over: writtenText(store.getState()).text, text: source });
      return;
    }
    if (store.getState().isPlaying) audio.stop(); // as loading a preset does
    store.getState().load(parsed.session);
    setTyped(null);
    const track = parsed.session.soundtrack?.name;
    // The soundtrack chosen with the schedule (by its name, or the only audio file chosen).
    const given = track ? (files.audio.find((f) => f.name === track) ?? (files.audio.length === 1 ? files.audio[0] : undefined)) : undefined;
    if (given) {
      void chooseSoundtrack(given).then((failed) => {
        if (!failed) store.getState().setSoundtrack({ name: given.name });
      });
    }
    const needed = track && !given && soundtrackStore.getState().audio?.name !== track ? soundtrackNeeded(track) : "";
    const status = (name ? SBG_IMPORTED(name, parsed.warnings.length) : TEXT_APPLIED) + needed;
    setReport({ status, errors: [], warnings: parsed.warnings });
  };

  const importFiles = async (list: FileList | null | undefined) => {
    const chosen = list ? [...list] : [];
    if (file.current) file.current.value = "";
    // The schedule, and beside it the files it may name: a soundtrack, a -p curve's .sbgf.
    // Without one, the first file is read as the schedule (a WAV chosen alone is refused as not text).
    const f = chosen.find((x) => /\.sbg$/i.test(x.name)) ?? chosen.find((x) => !AUDIO_FILE.test(x.name) && !/\.sbgf$/i.test(x.name)) ?? chosen[0];
    if (!f) return;
    setOpen(true);
    const texts = new Map<string, string>();
    for (const x of chosen) if (/\.sbgf$/i.test(x.name) && x.size <= SBG_MAX_CHARS) texts.set(x.name, await x.text());
    const files: ScheduleFiles = { texts, audio: chosen.filter((x) => AUDIO_FILE.test(x.name)) };
    // Past four bytes a character the text cannot fit SBG_MAX_CHARS: not even read (a video file).
    if (f.size > 4 * SBG_MAX_CHARS) {
      setReport({ status: SBG_NOT_IMPORTED(f.name), errors: [{ line: 0, message: SBG_TOO_LONG }], warnings: [], alone: true });
      return;
    }
    apply(await f.text(), f.name, files);
  };

  const exportFile = () => {
    try {
      const out = toSbg(presetData(store.getState()));
      saveAs(new Blob([out.text], { type: "text/plain" }), SBG_FILE_NAME);
      setReport({ status: "", errors: [], warnings: out.warnings });
    } catch (err) {
      setReport({ status: (err as Error).message, errors: [{ line: 0, message: (err as Error).message }], warnings: [] });
    }
  };

  const selectLine = (line: number) => {
    const el = box.current;
    if (!el) return;
    el.focus();
    el.setSelectionRange(...lineRange(el.value, line));
  };

  // Errors belong to the draft they were found in: once it is gone, so are they.
  const shown = report && (report.errors.length === 0 || draft !== null || report.alone) ? report : null;
  const warnings = shown ? shown.warnings : written.warnings;
  return (
    <div className="tl-text">
      <div className="tl-file-actions">
        <button type="button" className="secondary" aria-describedby="tl-import-help" onClick={() => file.current?.click()}>{IMPORT_SBG}</button>
        <input
          ref={file}
          type="file"
          multiple
          accept=".sbg,.sbgf,text/plain,.wav,.flac,.ogg,.oga,.mp3,audio/*"
          hidden
          tabIndex={-1}
          aria-hidden="true"
          data-testid="sbg-file"
          onChange={(e) => void importFiles(e.target.files)}
        />
        <button type="button" className="secondary" onClick={exportFile}>{EXPORT_SBG}</button>
        <p id="tl-import-help" className="help">{IMPORT_HELP}</p>
      </div>
      <details open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
        <summary>{TEXT_VIEW_TITLE}</summary>
        <p id="tl-text-help" className="help">{TEXT_VIEW_HELP}</p>
        <label className="sr-only" htmlFor="tl-text-box">{TEXT_VIEW_TITLE}</label>
        <textarea
          id="tl-text-box"
          ref={box}
          className="tl-textarea"
          spellCheck={false}
          rows={Math.min(24, Math.max(8, text.split("\n").length + 1))}
          aria-describedby="tl-text-help"
          aria-invalid={shown && shown.errors.length > 0 && !shown.alone ? true : undefined}
          value={text}
          // The details' toggle event comes after the box is shown: text typed before it lands is
          // typed over the text the open view is about to show, not this render's empty one.
          onChange={(e) => setTyped({ over: open ? written.text : writtenText(store.getState()).text, text: e.target.value })}
        />
        <div className="tl-text-actions">
          <button type="button" className="button primary" onClick={() => apply(text, null)}>{APPLY_TEXT}</button>
          <button type="button" className="secondary" disabled={draft === null} onClick={() => { setTyped(null); setReport(null); }}>{RESET_TEXT}</button>
        </div>
      </details>
      <div role="status" className="tl-report">
        {shown?.status && <p className={shown.errors.length > 0 ? "form-error" : "tl-ok"}>{shown.status}</p>}
      </div>
      {shown && shown.errors.length > 0 && <IssueList title={ERRORS_TITLE} issues={shown.errors} onLine={selectLine} />}
      {warnings.length > 0 && <IssueList title={WARNINGS_TITLE} issues={warnings} onLine={open ? selectLine : undefined} />}
    </div>
  );
}

/** The session as .sbg text, as the open view shows it (a session .sbg cannot express: no text). */
function writtenText(state: Parameters<typeof presetData>[0]): { text: string; warnings: SbgIssue[] } {
  try {
    return toSbg(presetData(state));
  } catch (err) {
    return { text: "", warnings: [{ line: 0, message: (err as Error).message }] };
  }
}

function IssueList({ title, issues, onLine }: { title: string; issues: readonly SbgIssue[]; onLine?: (line: number) => void }) {
  return (
    <div className="tl-issues">
      <h3>{title}</h3>
      <ul>
        {issues.map((i, k) => (
          <li key={k}>
            {onLine && i.line > 0 ? (
              <button type="button" className="link" onClick={() => onLine(i.line)}>{lineMessage(i.line, i.message)}</button>
            ) : (
              lineMessage(i.line, i.message)
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
