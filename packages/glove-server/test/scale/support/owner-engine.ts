import { afterAll } from "vitest";

/**
 * Runs a scale test file's cases on the scale mode as one engine (owner-host.ts, decision 0057):
 * the variable picks the engine for the in-process helpers (scaleMode) and for the child-process
 * fixture (inherited by the instances it starts). Removed after the file: a worker process may run
 * other test files afterwards.
 */
export async function onOwnerEngine(load: () => Promise<unknown>): Promise<void> {
  process.env.GLOVE_SCALE_ENGINE = "owner";
  afterAll(() => {
    delete process.env.GLOVE_SCALE_ENGINE;
  });
  await load();
}
