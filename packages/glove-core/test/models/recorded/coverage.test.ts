/**
 * The README's coverage table is the index of this suite: every fixture of every family is in
 * it, and the source it states is the one the fixture's provenance record says.
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { listFixtures, loadFixture } from "./support/index.js";

const ROOT = dirname(fileURLToPath(import.meta.url));
const FAMILIES = ["openai-compat", "anthropic", "bedrock"];

interface Row {
  fixture: string | undefined;
  source: string;
}

function tableRows(): Row[] {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const rows: Row[] = [];
  for (const line of readme.split("\n")) {
    const cells = line.split("|").map((c) => c.trim());
    // | Provider | Case | Fixture | Source |  →  ["", provider, case, fixture, source, ""]
    if (cells.length !== 6 || !/^(recorded|documentation|none)$/.test(cells[4]!)) continue;
    const fixture = /^`([^`]+)`$/.exec(cells[3]!)?.[1];
    rows.push({ fixture, source: cells[4]! });
  }
  return rows;
}

describe("README coverage table", () => {
  const rows = tableRows();

  it("lists every fixture of every family exactly once", () => {
    const listed = rows.flatMap((r) => (r.fixture ? [r.fixture] : [])).sort();
    const present = FAMILIES.flatMap((family) =>
      listFixtures(join(ROOT, family)).map((name) => `${family}/${name}`),
    ).sort();
    expect(listed).toEqual(present);
  });

  it("states each fixture's source as its provenance record does; recorded ones name a commit", () => {
    for (const row of rows.filter((r) => r.fixture)) {
      const [family, name] = row.fixture!.split("/") as [string, string];
      const { provenance } = loadFixture(join(ROOT, family), name);
      expect(provenance.source, row.fixture).toBe(row.source);
      if (provenance.source === "recorded") expect(provenance.commit, row.fixture).toMatch(/^[0-9a-f]{40}$/);
    }
  });

  it("marks a case without a fixture as none, never as recorded", () => {
    for (const row of rows.filter((r) => !r.fixture)) expect(row.source).toBe("none");
  });
});
