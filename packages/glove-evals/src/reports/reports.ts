import type { GateVerdict } from "../gate/gate.js";
import type { ExperimentRecord, ItemResult } from "../storage/records.js";

/** The JSON report: the experiment, its results and the gate's verdict. */
export function jsonReport(experiment: ExperimentRecord, results: ItemResult[], gate?: GateVerdict): string {
  return JSON.stringify({ experiment, gate: gate ?? null, results }, null, 2) + "\n";
}

const escape = (text: string) =>
  text
    // XML 1.0 has no way to carry these control characters, even escaped.
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");

/**
 * JUnit XML for CI test tabs: a test case per run (failed when it did not end "done" or a score is
 * below its scorer's passAt) and one per gate check.
 */
export function junitReport(experiment: ExperimentRecord, results: ItemResult[], gate?: GateVerdict): string {
  const passAt = Object.fromEntries(experiment.config.scorers.map((s) => [s.name, s.passAt]));
  const cases = results.map((r) => {
    const problems: string[] = [];
    if (r.status !== "done") problems.push(`run ${r.status}${r.error ? `: ${r.error.code} ${r.error.message}` : ""}`);
    for (const [name, s] of Object.entries(r.scores)) {
      if (s.error !== undefined) problems.push(`${name}: scorer error: ${s.error}`);
      else if (s.score < (passAt[name] ?? 1))
        problems.push(`${name}: ${s.score.toFixed(3)} < ${passAt[name] ?? 1} (${s.reason})`);
    }
    const name = `${r.itemId}#${r.repetition}`;
    const body = problems.length
      ? `<failure message="${escape(problems[0]!)}">${escape(problems.join("\n"))}</failure>`
      : "";
    return `    <testcase classname="${escape(experiment.datasetName)}" name="${escape(name)}" time="${(r.latencyMs / 1000).toFixed(3)}">${body}<system-out>${escape(`conversation ${r.conversationId}`)}</system-out></testcase>`;
  });
  const gateCases = gate
    ? [
        `    <testcase classname="gate" name="gate">${gate.failures.length ? `<failure message="${escape(gate.failures[0]!.message)}">${escape(gate.failures.map((f) => f.message).join("\n"))}</failure>` : ""}</testcase>`,
      ]
    : [];
  const all = [...cases, ...gateCases];
  const failures = all.filter((c) => c.includes("<failure")).length;
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="glove-evals" tests="${all.length}" failures="${failures}">`,
    `  <testsuite name="${escape(experiment.name)}" tests="${all.length}" failures="${failures}" timestamp="${escape(experiment.startedAt)}">`,
    ...all,
    `  </testsuite>`,
    `</testsuites>`,
    "",
  ].join("\n");
}
