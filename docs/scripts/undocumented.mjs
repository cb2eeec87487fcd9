/* global console, process, URL -- a Node script run by `npm run docs` */
// Lists the public exports of the API reference that have no summary, from TypeDoc's JSON
// (docs/api/api.json, written by `npm run docs`). Prints a count per module and the names;
// `--members` also counts undocumented properties and methods of documented exports.
// It reports; it never fails the run (the sources belong to their packages).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const project = JSON.parse(readFileSync(fileURLToPath(new URL("../api/api.json", import.meta.url)), "utf8"));
const REFERENCE = 4194304; // ReflectionKind.Reference: a re-export, documented where it is declared
const byId = new Map();
const index = (r) => {
  byId.set(r.id, r);
  for (const c of r.children ?? []) index(c);
};
index(project);

const summary = (r) =>
  [
    r.comment,
    r.getSignature?.comment,
    ...(r.signatures ?? []).map((s) => s.comment),
    ...(r.type?.declaration?.signatures ?? []).map((s) => s.comment),
  ].some((c) => c?.summary?.some((part) => part.text.trim()));

const showMembers = process.argv.includes("--members");
let exports = 0;
let members = 0;
const missing = [];
let missingMembers = 0;
for (const mod of project.children ?? []) {
  for (const child of mod.children ?? []) {
    const target = child.kind === REFERENCE ? byId.get(child.target) : child;
    if (!target || child.kind === REFERENCE) continue; // counted where it is declared
    exports++;
    if (!summary(target)) missing.push(`${mod.name}: ${target.name}`);
    for (const member of target.children ?? []) {
      if (member.flags?.isExternal || member.inheritedFrom) continue;
      members++;
      if (!summary(member)) missingMembers++;
    }
  }
}
console.log(
  `API reference: ${exports} exports, ${missing.length} without a one-line summary; ${members} members, ${missingMembers} without one.`,
);
if (showMembers || process.argv.includes("--list")) for (const name of missing) console.log(`  ${name}`);
