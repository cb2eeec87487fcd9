// The conformance CLI imports `globSync` from "fs", which Node 20 lacks; it only uses it in its
// `tier-check` command, never while testing a client. On Node < 22 this hook serves that one
// import from a module that re-exports node:fs plus a globSync that says what to do instead.
// Loaded with `node --import ./node20-fs-shim.mjs`; a no-op on Node 22+.
import process from "node:process";
import { register } from "node:module";

const major = Number(process.versions.node.split(".")[0]);
if (major < 22) {
  register("./node20-fs-hooks.mjs", import.meta.url);
}
