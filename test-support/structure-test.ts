import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { importCircles, importsLeaving } from "./import-graph.js";

export interface StructureRules {
  /** Circles known today, each as `importCircles` prints it; ARCHITECTURE.md says why each may stay for now. */
  knownCircles?: string[];
  /** Imports out of `types/` known today, as `importsLeaving` prints them; same terms as the circles. */
  knownTypeExits?: string[];
}

/**
 * The structure every package holds: no import circle under `root` but the known ones (a new circle
 * fails, and so does a known one that is gone — take it off the list), and a `types/` folder, where
 * there is one, importing nothing above it.
 */
export function describeStructure(name: string, root: string, rules: StructureRules = {}): void {
  describe(`${name}'s imports`, () => {
    it("have no circle but the known ones", () => {
      const circles = importCircles(root);
      const known = rules.knownCircles ?? [];
      expect({
        new: circles.filter((c) => !known.includes(c)),
        gone: known.filter((c) => !circles.includes(c)),
      }).toEqual({ new: [], gone: [] });
    });

    if (existsSync(join(root, "types"))) {
      it("never leave types/ but the known exits (types sit below everything else)", () => {
        const exits = importsLeaving(root, "types", ["types"]);
        const known = rules.knownTypeExits ?? [];
        expect({ new: exits.filter((e) => !known.includes(e)), gone: known.filter((e) => !exits.includes(e)) }).toEqual(
          {
            new: [],
            gone: [],
          },
        );
      });
    }
  });
}
