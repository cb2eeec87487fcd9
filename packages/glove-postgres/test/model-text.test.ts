import { afterAll, describe, expect, it } from "vitest";
import { ScriptedModel } from "glove-core/testing";
import { PostgresStore } from "../src/index.js";
import { makeCoffeeAgent } from "../../../test-support/coffee-agent.js";
import { PG_URL, pgProblem, uniqueSchema } from "./pg-env.js";

const enabled = (await pgProblem()) === undefined;
const schema = uniqueSchema("text");
const stores: PostgresStore[] = [];

afterAll(async () => {
  if (!enabled) return;
  const admin = await PostgresStore.open({ connectionString: PG_URL, schema, sessionId: "cleanup" });
  await admin.pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await Promise.all([...stores, admin].map((s) => s.close()));
});

// PostgreSQL text cannot hold NUL; a model can still write one (docs/decisions/0020).
describe.runIf(enabled)("a model's output with NUL and lone surrogates on PostgreSQL", () => {
  it("is stored exactly; a task the task tool cannot keep becomes an error result, and the conversation goes on", async () => {
    const store = await PostgresStore.open({ connectionString: PG_URL, schema, sessionId: "nul-chat" });
    stores.push(store);
    const odd = "done\u0000 \ud800 😀";
    const model = new ScriptedModel([
      {
        text: odd,
        toolCalls: [
          {
            name: "glove_update_tasks",
            input: { todos: [{ content: "grind\u0000", activeForm: "grinding", status: "pending" }] },
          },
        ],
      },
      { text: `still here ${odd}` },
      { text: "and again" },
    ]);
    const agent = makeCoffeeAgent(store, model);
    await agent.processRequest(`a request with ${odd}`);
    await agent.processRequest("next");

    const reopened = await PostgresStore.open({ connectionString: PG_URL, schema, sessionId: "nul-chat" });
    stores.push(reopened);
    const messages = await reopened.getMessages();
    expect(messages.map((m) => m.text)).toEqual([
      `a request with ${odd}`,
      odd,
      "",
      `still here ${odd}`,
      "next",
      "and again",
    ]);
    expect(messages[2]?.tool_results?.[0]?.result.status).toBe("error");
    expect(messages[2]?.tool_results?.[0]?.result.message).toMatch(/GLOVE_STORE_INVALID|NUL character/);
    expect(await reopened.getTasks()).toEqual([]);
  });
});
