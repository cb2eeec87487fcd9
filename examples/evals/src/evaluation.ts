import { fileURLToPath } from "node:url";
import {
  askedForMissing,
  askedPermission,
  budget,
  contains,
  loadDataset,
  runExperiment,
  toolTrajectory,
  type AgentOverride,
  type EvalStorage,
} from "glove-evals";
import { bistroAgent } from "./agent.js";

/** The dataset kept beside this file's package. */
export const DATASET = fileURLToPath(new URL("../evals/bookings.jsonl", import.meta.url));

/** What the bistro is judged on: asking before booking, booking what the guest said, answering. */
export const scorers = [
  askedPermission({ tool: "book_table" }),
  askedForMissing({ form: "reservation_form", before: "book_table", fields: ["name", "guests", "time"] }),
  toolTrajectory(),
  contains(undefined, { name: "answer" }),
  budget({ maxModelCalls: 4 }),
];

/** Runs the bistro's agent (optionally a variant) over the dataset. */
export async function evaluateBistro(storage: EvalStorage, override?: AgentOverride) {
  const bookings: string[] = [];
  const outcome = await runExperiment({
    dataset: await loadDataset(DATASET),
    agent: bistroAgent(bookings),
    scorers,
    storage,
    repetitions: 2,
    concurrency: 4,
    ...(override ? { override } : {}),
  });
  return { ...outcome, bookings };
}
