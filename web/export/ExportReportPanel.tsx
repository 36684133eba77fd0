// The export report after an Export WAV: a headline (all checks passed, or how many failed), the
// failed lines at once, and everything that was verified behind a disclosure. The lines are the
// CLI's report text (dsp/host/export/report-text.ts), so the studio and `npm run render --
// --report` always say the same; Save report writes that text next to the WAV's name.

import type { ExportReport } from "../../dsp/host/export/report";
import { formatReport, reportSections, reportSummary } from "../../dsp/host/export/report-text";
import { saveAs } from "./download";

type Tag = "PASS" | "FAIL" | "SKIP";
const TAGGED = /^(\s*)(PASS|FAIL|SKIP) (.*)$/;

function Line({ text }: { text: string }) {
  const m = TAGGED.exec(text);
  if (!m) return <li className="export-report-note">{text}</li>;
  const tag = m[2] as Tag;
  return (
    <li data-status={tag.toLowerCase()} className={m[1] ? "export-report-indent" : undefined}>
      <span className="export-report-tag">{tag}</span> {m[3]}
    </li>
  );
}

export function reportFileName(wavName: string): string {
  return wavName.replace(/\.wav$/i, "") + "-report.txt";
}

export function ExportReportPanel({ report, fileName }: { report: ExportReport; fileName: string }) {
  const sections = reportSections(report);
  const failed = sections.flatMap((s) => s.lines).filter((l) => /^\s*FAIL /.test(l));
  return (
    <section className="export-report" aria-label="Export report" data-pass={report.pass}>
      <p className="export-report-summary">
        <span aria-hidden="true">{report.pass ? "✓ " : "✗ "}</span>
        {reportSummary(report)}
      </p>
      {failed.length > 0 && (
        <ul className="export-report-lines" aria-label="Failed checks">
          {failed.map((l, i) => <Line key={i} text={l.trim()} />)}
        </ul>
      )}
      <details className="export-report-details">
        <summary>What was verified</summary>
        {sections.map((s) => (
          <div key={s.title}>
            <p className="export-report-title">{s.title}</p>
            <ul className="export-report-lines">
              {s.lines.map((l, i) => <Line key={i} text={l} />)}
            </ul>
          </div>
        ))}
      </details>
      <button
        type="button"
        className="export-secondary"
        onClick={() => saveAs(new Blob([formatReport(report)], { type: "text/plain" }), reportFileName(fileName))}
      >
        Save report
      </button>
    </section>
  );
}
