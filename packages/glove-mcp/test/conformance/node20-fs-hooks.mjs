// Module hooks for node20-fs-shim.mjs: only the conformance packages' own "fs" import is redirected
// (the release and the pre-release installed as mcp-conformance-next).
const SHIM = "glove-conformance:fs";
const SOURCE = `export * from "node:fs";
export function globSync() {
  throw new Error("fs.globSync needs Node 22+; run the conformance CLI's tier-check under Node 22.");
}`;

export async function resolve(specifier, context, next) {
  if (
    (specifier === "fs" || specifier === "node:fs") &&
    /\/(@modelcontextprotocol\/conformance|mcp-conformance-next)\/dist\//.test(context.parentURL ?? "")
  ) {
    return { url: SHIM, shortCircuit: true };
  }
  return next(specifier, context);
}

export async function load(url, context, next) {
  if (url === SHIM) return { format: "module", source: SOURCE, shortCircuit: true };
  return next(url, context);
}
