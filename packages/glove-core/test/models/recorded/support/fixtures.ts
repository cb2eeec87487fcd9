/**
 * Loads recorded fixtures (format and provenance rule: ../README.md). A fixture is response data
 * only: `<name>.json` ({ status, headers, body }) or a raw body file `<name>.sse` / `.txt` / `.bin`,
 * always with `<name>.provenance.json` next to it saying where the response came from.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { NamedError } from "./named-error.js";
import type { RecordedResponse } from "./recorded-response.js";

/** Where a fixture's response came from. `recorded`: a public project's captured provider traffic. */
export interface Provenance {
  source: "recorded" | "documentation";
  /** owner/name on GitHub (recorded fixtures). */
  repository?: string;
  /** File inside the repository. */
  path?: string;
  /** 40-hex commit the file was read at. */
  commit?: string;
  /** Documentation page (documentation fixtures) or any other public address. */
  url?: string;
  license?: string;
  /** What was kept, what was cut or reshaped (e.g. "only the response; request dropped"). */
  notes: string;
}

export interface Fixture {
  name: string;
  response: RecordedResponse;
  provenance: Provenance;
}

/** Thrown for a fixture that is missing, malformed or lacks provenance; says which file to fix. */
export class FixtureError extends NamedError {}

const RAW: Record<string, string> = {
  ".sse": "text/event-stream",
  ".txt": "text/plain",
  ".bin": "application/octet-stream",
};

function readProvenance(dir: string, name: string): Provenance {
  const file = join(dir, `${name}.provenance.json`);
  if (!existsSync(file))
    throw new FixtureError(`${file} is missing: every fixture needs a provenance record (see recorded/README.md)`);
  const p = JSON.parse(readFileSync(file, "utf8")) as Partial<Provenance>;
  if (p.source !== "recorded" && p.source !== "documentation")
    throw new FixtureError(`${file}: "source" must be "recorded" or "documentation"`);
  if (typeof p.notes !== "string") throw new FixtureError(`${file}: "notes" (a string) is required`);
  if (p.source === "recorded" && !(p.repository && p.path && p.commit && /^[0-9a-f]{40}$/.test(p.commit))) {
    throw new FixtureError(`${file}: a recorded fixture names its repository, path and 40-hex commit`);
  }
  if (p.source === "documentation" && !p.url) throw new FixtureError(`${file}: a documentation fixture names its url`);
  return p as Provenance;
}

/** Loads fixture `name` from `dir`. */
export function loadFixture(dir: string, name: string): Fixture {
  const provenance = readProvenance(dir, name);
  const jsonFile = join(dir, `${name}.json`);
  if (existsSync(jsonFile)) {
    const r = JSON.parse(readFileSync(jsonFile, "utf8")) as {
      status?: number;
      headers?: Record<string, string>;
      body?: unknown;
    };
    if (r.body === undefined) throw new FixtureError(`${jsonFile}: "body" is required`);
    const body = typeof r.body === "string" ? r.body : JSON.stringify(r.body);
    return {
      name,
      provenance,
      response: {
        status: r.status ?? 200,
        headers: r.headers ?? { "content-type": "application/json" },
        body: new TextEncoder().encode(body),
      },
    };
  }
  for (const [ext, type] of Object.entries(RAW)) {
    const file = join(dir, `${name}${ext}`);
    if (existsSync(file)) {
      return {
        name,
        provenance,
        response: { status: 200, headers: { "content-type": type }, body: new Uint8Array(readFileSync(file)) },
      };
    }
  }
  throw new FixtureError(
    `no response file for fixture "${name}" in ${dir} (expected ${name}.json, .sse, .txt or .bin)`,
  );
}

/** Every fixture name in `dir` (one per provenance record). */
export function listFixtures(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith(".provenance.json"))
    .map((f) => f.slice(0, -".provenance.json".length))
    .sort();
}
