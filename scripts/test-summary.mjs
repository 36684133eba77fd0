// Prints one closing line for the whole `npm test` run ("tests: N passed, N failed, N skipped"),
// summed over the unit and e2e vitest JSON reports, and fails if either report is missing.
import { readFileSync } from "node:fs";

let passed = 0;
let failed = 0;
let skipped = 0;
for (const file of [".tmp/vitest-unit.json", ".tmp/vitest-e2e.json"]) {
  let report;
  try {
    report = JSON.parse(readFileSync(file, "utf8"));
  } catch {
    console.error(`No test report at ${file}: a test stage did not run.`);
    process.exit(1);
  }
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += report.numPendingTests + (report.numTodoTests ?? 0);
}
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
