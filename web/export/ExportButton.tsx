// Export WAV: renders the studio's state for its duration in a worker and streams the file to
// disk, or memory where the browser gives no disk (web/export/export-runner.ts). The studio stays
// usable meanwhile; errors use the spec's texts (section 8) where it has one: an alert for no
// enabled channel, toasts for storage, memory and other failures; and plain texts of their own
// where it has none (web/export/messages.ts chooses by the error's name and stage).
// WAV export needs Pro or unlimited access (spec 6): free users and demo users see the button locked
// with '🔒 Pro Only' (opens the plans); anonymous visitors get the whole studio disabled by StudioPage.

import { useEffect, useId, useRef, useState } from "react";
import { useStore } from "zustand";
import { toast } from "sonner";
import { hasAudibleChannel } from "../../dsp/host/schema/state";
import { announce } from "../a11y/announcer";
import { useSession, useStudioGate } from "../account/hooks";
import { DEFAULT_MP3_KBPS, EXPORT_FORMATS, MP3_CBR_KBPS, describeSettings, mp3VbrAverageKbps, estimatedBytes, formatFileSize, type ExportFormatId } from "../../dsp/host/export/formats";
import { STUDIO_MP3_VBR, browserEncodesOpus, readChoice, settingsOf, writeChoice, type FormatChoice } from "./format-choice";
import { isProActionLocked } from "../account/studio-gating";
import { ProActionButton } from "../account/ProActionButton";
import { useStudio } from "../state/studio-context";
import type { ExportReport } from "../../dsp/host/export/report";
import { ExportRun, NoChannelError, type ExportUpdate } from "./export-runner";
import { askExport, ExportRefusedError } from "./export-count";
import { ExportCountLine } from "./ExportCountLine";
import { ExportProgress } from "./ExportProgress";
import { NO_CHANNEL_ALERT, classifyExportError } from "./messages";
import { NORMALISED_LUFS } from "../../dsp/host/schema/levels";
import { levelsOf, levelsStore } from "../levels/levels-store";
import "./export.css";

// Screen-reader announcements (web/a11y/announcer.ts); completion is ExportProgress's status line,
// failures are toasts, both announced where they appear.
export const EXPORT_STARTED = "Exporting WAV";
export const EXPORT_CANCELLED = "Export cancelled";
export const NORMALISE_LABEL = `Normalise loudness (${NORMALISED_LUFS} LUFS)`;

export function ExportButton() {
  const store = useStudio();
  const locked = isProActionLocked(useStudioGate());
  const run = useRef<ExportRun | null>(null);
  const [busy, setBusy] = useState(false);
  const [update, setUpdate] = useState<ExportUpdate | null>(null);
  const [fileName, setFileName] = useState<string | null>(null);
  const [report, setReport] = useState<ExportReport | null>(null);
  // Chosen per export (not stored): most exports keep the studio's own level.
  const [normalize, setNormalize] = useState(false);
  // The format, remembered per user on this device (web/export/format-choice.ts).
  const userId = useSession((s) => s.user?.id ?? null);
  // The choice made here, for the user it was made for; else what storage holds for this user.
  const [made, setMade] = useState<{ userId: string | null; choice: FormatChoice } | null>(null);
  const choice = made && made.userId === userId ? made.choice : readChoice(userId);
  const [opus, setOpus] = useState(false);
  useEffect(() => {
    let live = true;
    void browserEncodesOpus().then((ok) => live && setOpus(ok));
    return () => {
      live = false;
    };
  }, []);
  const choose = (next: FormatChoice) => {
    writeChoice(userId, next);
    setMade({ userId, choice: next });
  };
  const formatId = useId();
  const kbpsId = useId();
  const offered = (Object.keys(EXPORT_FORMATS) as ExportFormatId[]).filter((f) => f !== "opus" || opus);
  const format = offered.includes(choice.format) ? choice.format : "wav16";
  const settings = settingsOf({ ...choice, format });
  const kind = EXPORT_FORMATS[format].kind;
  const duration = useStore(store, (s) => Math.min(s.duration, s.maxDuration));

  const onClick = async () => {
    if (run.current || locked) return;
    const s = store.getState();
    if (!hasAudibleChannel(s)) {
      window.alert(NO_CHANNEL_ALERT);
      return;
    }
    const duration = Math.min(s.duration, s.maxDuration);
    // The listener's levels go into the file, as into live playback: what is exported is what was heard.
    const current = new ExportRun(s, duration, setUpdate, { levels: levelsOf(levelsStore.getState()), normalize, settings });
    // Counted against the plan once the file's place is chosen (closing the picker counts nothing).
    current.beforeRender = () => askExport("wav", duration);
    run.current = current;
    setBusy(true);
    setFileName(null);
    setReport(null);
    setUpdate(null); // the bar appears at 10% once the file is chosen
    announce(EXPORT_STARTED);
    try {
      const outcome = await current.start();
      if (outcome.status === "cancelled") {
        setUpdate(null);
        announce(EXPORT_CANCELLED);
      } else {
        setFileName(outcome.fileName);
        setReport(outcome.report ?? null);
        toast.success(outcome.status === "saved" ? `${kind} saved: ${outcome.fileName}` : `${kind} downloaded: ${outcome.fileName}`);
      }
    } catch (err) {
      console.error(`${kind} export failed:`, err);
      setUpdate(null);
      if (err instanceof NoChannelError) {
        window.alert(NO_CHANNEL_ALERT);
      } else if (err instanceof ExportRefusedError) {
        toast.error(err.message, { id: "export-refused" });
      } else {
        const failure = classifyExportError(err, duration);
        if (failure.kind === "alert") window.alert(failure.text);
        else toast.error(failure.text);
      }
    } finally {
      run.current = null;
      setBusy(false);
    }
  };

  return (
    <ProActionButton className="export" label={`Export ${kind}`} busyLabel="Exporting…" busy={busy} locked={locked} feature="WAV export" onClick={onClick}>
      <div className="export-format">
        <label htmlFor={formatId}>Export format</label>
        <select id={formatId} value={format} disabled={busy || locked} onChange={(e) => choose({ ...choice, format: e.target.value as ExportFormatId })}>
          {offered.map((f) => (
            <option key={f} value={f}>
              {EXPORT_FORMATS[f].label}
              {EXPORT_FORMATS[f].lossless && !f.startsWith("wav") ? " (lossless)" : ""}
            </option>
          ))}
        </select>
        {format === "mp3" && (
          <>
            <label htmlFor={kbpsId} className="sr-only">MP3 bitrate</label>
            <select
              id={kbpsId}
              value={settings.mp3?.kind === "vbr" ? `vbr:${settings.mp3.quality}` : `cbr:${settings.mp3?.kbps ?? DEFAULT_MP3_KBPS}`}
              disabled={busy || locked}
              onChange={(e) => {
                const [mode, n] = e.target.value.split(":");
                choose(mode === "vbr" ? { format, mp3Vbr: Number(n) } : { format, mp3Kbps: Number(n) });
              }}
            >
              {MP3_CBR_KBPS.map((k) => (
                <option key={`cbr:${k}`} value={`cbr:${k}`}>
                  {k} kbps
                </option>
              ))}
              {STUDIO_MP3_VBR.map((q) => (
                <option key={`vbr:${q}`} value={`vbr:${q}`}>
                  VBR V{q} (about {mp3VbrAverageKbps(q)} kbps)
                </option>
              ))}
            </select>
          </>
        )}
        <span className="export-size">
          {describeSettings(settings)}, about {formatFileSize(estimatedBytes(settings, duration))}
        </span>
      </div>
      <label className="export-option">
        <input type="checkbox" checked={normalize} disabled={busy || locked} onChange={(e) => setNormalize(e.target.checked)} />
        {NORMALISE_LABEL}
      </label>
      {!locked && <ExportCountLine />}
      {update && (
        <ExportProgress
          kind={kind}
          update={update}
          fileName={fileName}
          report={report}
          onCancel={() => run.current?.cancel()}
          onDismiss={() => {
            setUpdate(null);
            setFileName(null);
            setReport(null);
          }}
        />
      )}
    </ProActionButton>
  );
}
