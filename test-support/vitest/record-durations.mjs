// Writes test-durations.json (the slow-first sequencer's order) from a vitest JSON report:
//   npx vitest run --reporter=json --outputFile.json=report.json && node test-support/vitest/record-durations.mjs report.json
import console from "node:console";
import { readFileSync, writeFileSync } from "node:fs";
import { relative } from "node:path";
import process from "node:process";

const [reportPath] = process.argv.slice(2);
if (!reportPath) {
  console.error("usage: node test-support/vitest/record-durations.mjs <vitest json report>");
  process.exit(2);
}
const report = JSON.parse(readFileSync(reportPath, "utf8"));
const files = Object.fromEntries(
  report.testResults
    .map((result) => [relative(process.cwd(), result.name), Math.round(result.endTime - result.startTime)])
    .sort((a, b) => b[1] - a[1]),
);
const note = "Milliseconds each test file took in one recorded run; only the order matters (slowest start first).";
writeFileSync("test-durations.json", `${JSON.stringify({ note, files }, null, 2)}\n`);
console.log(`test-durations.json: ${Object.keys(files).length} files`);
