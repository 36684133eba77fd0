// The export's progress: a bar with percent (10 to 100), elapsed time, time left and Cancel;
// once complete, the file name in its place and the export report below until dismissed or the
// next export.

import { formatDuration } from "../state/duration";
import type { ExportReport } from "../../dsp/host/export/report";
import type { ExportUpdate } from "./export-runner";
import { ExportReportPanel } from "./ExportReportPanel";

function clock(seconds: number): string {
  // mm:ss below an hour, hh:mm:ss above (the duration input's format).
  const text = formatDuration(Math.max(0, Math.round(seconds)));
  return seconds < 3600 ? text.slice(3) : text;
}

interface Props {
  /** The format's short name for the bar's label: "WAV", "FLAC", "MP3", "Opus". */
  kind?: string;
  update: ExportUpdate;
  /** Set once the file is complete. */
  fileName: string | null;
  /** What was verified on the rendered audio, once complete. */
  report?: ExportReport | null;
  onCancel(): void;
  onDismiss(): void;
}

export function ExportProgress({ kind = "WAV", update, fileName, report, onCancel, onDismiss }: Props) {
  const done = fileName !== null;
  const percent = done ? 100 : update.percent;
  return (
    <div className="export-progress" data-state={done ? "done" : "running"}>
      <div
        className="export-bar"
        role="progressbar"
        aria-label={`${kind} export progress`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={`${percent}%`}
      >
        <div className="export-bar-fill" style={{ width: `${percent}%` }} />
      </div>
      <div className="export-meta">
        <span className="export-percent">{percent}%</span>
        <span>Elapsed {clock(update.elapsedSeconds)}</span>
        {done ? (
          <span role="status" className="export-done">Export complete: {fileName}</span>
        ) : (
          <span aria-live="off">
            {Number.isFinite(update.remainingSeconds) ? `About ${clock(update.remainingSeconds)} left` : "Estimating time left…"}
          </span>
        )}
        {done ? (
          <button type="button" className="export-secondary" onClick={onDismiss} aria-label="Dismiss export status">
            Dismiss
          </button>
        ) : (
          <button type="button" className="export-secondary" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
      {done && report && <ExportReportPanel report={report} fileName={fileName} />}
    </div>
  );
}
