import { describe, expect, it } from "vitest";
import { ProviderError } from "glove-core";
import {
  askedForMissing,
  askedPermission,
  contains,
  defineDataset,
  defineScorer,
  memoryEvalStorage,
  runExperiment,
  toolTrajectory,
} from "../src/index.js";
import { bistroAgent } from "./support/bistro.js";

const booking = { name: "Ada", guests: 2, time: "19:30" };
const dataset = defineDataset("bookings", [
  {
    id: "book",
    input: "Book a table please",
    expected: { output: "booked", toolCalls: [{ name: "reservation_form" }, { name: "book_table", args: booking }] },
    answers: [
      { tool: "reservation_form", resolve: booking },
      { permission: true, tool: "book_table", resolve: true },
    ],
  },
  { id: "chat", input: ["Hello", "How are you?"], expected: { output: "How are you", toolCalls: [] } },
]);
const scorers = [
  contains(),
  toolTrajectory(),
  askedPermission({ tool: "book_table" }),
  askedForMissing({ form: "reservation_form", before: "book_table", fields: ["name", "guests", "time"] }),
];

describe("runExperiment", () => {
  it("runs each item through the server, answers its questions and scores the run", async () => {
    const storage = memoryEvalStorage();
    const { experiment, results } = await runExperiment({
      dataset,
      agent: bistroAgent(),
      scorers,
      storage,
      repetitions: 2,
    });
    expect(experiment.status).toBe("completed");
    expect(experiment.datasetVersion).toBe(dataset.version);
    expect(results.map((r) => `${r.itemId}#${r.repetition}`)).toEqual(["book#0", "book#1", "chat#0", "chat#1"]);
    const book = results[0]!;
    expect(book.status).toBe("done");
    expect(book.output).toBe("Your table is booked: GB-1.");
    expect(book.scores["contains"]!.score).toBe(1);
    expect(book.scores["tool_trajectory"]!.score).toBe(1);
    expect(book.scores["asked_permission:book_table"]).toMatchObject({ score: 1 });
    expect(book.scores["asked_for_missing:reservation_form"]).toMatchObject({ score: 1 });
    const chat = results[2]!;
    expect(chat.output).toBe("You said: How are you?");
    expect(chat.usage.modelCalls).toBe(2);
    // Every run is a stored conversation with its turns traced.
    const traces = await storage.server.inspect!.traces.list(book.conversationId, { limit: 10 });
    expect(traces.length).toBeGreaterThan(0);
    expect(experiment.summary!.scores["tool_trajectory"]).toMatchObject({ mean: 1, passAtK: 1 });
  });

  it("a careless agent that books without asking scores 0 on the human-in-the-loop scorers", async () => {
    const { results } = await runExperiment({
      dataset,
      agent: bistroAgent({ careless: true }),
      scorers,
      storage: memoryEvalStorage(),
    });
    const book = results.find((r) => r.itemId === "book")!;
    // The permission prompt still comes (glove-core asks), but no form was asked: the name was invented.
    expect(book.scores["asked_for_missing:reservation_form"]!.score).toBe(0);
    expect(book.scores["tool_trajectory"]!.score).toBe(0);
    expect(book.scores["asked_permission:book_table"]!.score).toBe(1);
  });

  it("a scorer that throws is an error score for that item; the experiment goes on", async () => {
    const broken = defineScorer("broken", (run) => {
      if (run.item.id === "chat") throw new Error("cannot score chats");
      return 1;
    });
    const { experiment, results } = await runExperiment({
      dataset,
      agent: bistroAgent(),
      scorers: [broken],
      storage: memoryEvalStorage(),
    });
    expect(results.find((r) => r.itemId === "chat")!.scores["broken"]).toMatchObject({
      score: 0,
      error: "cannot score chats",
    });
    expect(results.find((r) => r.itemId === "book")!.scores["broken"]).toMatchObject({ score: 1 });
    expect(experiment.summary!.scores["broken"]!.errors).toBe(1);
  });

  it("retries a run after a retryable provider error, and keeps a non-retryable one as an error", async () => {
    let failures = 1;
    const flaky = bistroAgent({
      failWith: () =>
        failures-- > 0
          ? new ProviderError({ provider: "test", status: 503, retryable: true, providerMessage: "overloaded" })
          : undefined,
    });
    const one = defineDataset("one", [{ id: "chat", input: "Hello" }]);
    const retried = await runExperiment({
      dataset: one,
      agent: flaky,
      scorers: [contains("Hello")],
      storage: memoryEvalStorage(),
      retryDelayMs: 1,
    });
    expect(retried.results[0]).toMatchObject({ status: "done", retries: 1 });

    const fatal = bistroAgent({
      failWith: () =>
        new ProviderError({ provider: "test", status: 401, retryable: false, providerMessage: "bad key" }),
    });
    const failed = await runExperiment({
      dataset: one,
      agent: fatal,
      scorers: [contains("Hello")],
      storage: memoryEvalStorage(),
    });
    expect(failed.results[0]).toMatchObject({ status: "error", retries: 0, error: { code: "GLOVE_PROVIDER" } });
    expect(failed.experiment.summary!.failedRuns).toBe(1);
  });
});
