import { describe, expect, it } from "vitest";
import {
  Displaymanager,
  Glove,
  SUBAGENT_DISPATCH_TOOL_NAME,
  type IGloveRunnable,
  type SubscriberEvent,
} from "glove-core";
import { RecordingSubscriber, ScriptedModel, type ScriptedStep } from "glove-core/testing";

const invoke = (name: string, prompt: string) => ({
  toolCalls: [{ name: SUBAGENT_DISPATCH_TOOL_NAME, input: { name, prompt } }],
});

function agent(prompt: string, steps: ScriptedStep[]): Glove {
  return new Glove({
    model: new ScriptedModel(steps),
    displayManager: new Displaymanager(),
    systemPrompt: prompt,
    compaction_config: { compaction_instructions: "Summarize." },
  });
}

/** Text of the streamed deltas, grouped by who spoke ("" for the agent subscribed to). */
function spoken(events: readonly SubscriberEvent[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of events)
    if (e.type === "text_delta")
      out[(e.agentPath ?? []).join("/")] = (out[(e.agentPath ?? []).join("/")] ?? "") + e.text;
  return out;
}

describe("events forwarded from subagents carry agentPath", () => {
  it("two levels deep: the parent sees [planner] and [planner, researcher]; its own events have none", async () => {
    let planner: IGloveRunnable | undefined;
    const plannerEvents = new RecordingSubscriber();
    const parent = agent("You coordinate.", [
      invoke("planner", "Plan a trip"),
      { text: "Here is the plan." },
    ]).defineSubAgent({
      name: "planner",
      factory: () => {
        planner = agent("You plan.", [invoke("researcher", "Find trains"), { text: "Take the 9:00." }])
          .defineSubAgent({
            name: "researcher",
            factory: () => agent("You research.", [{ text: "Trains leave at 9:00." }]).build(),
          })
          .addSubscriber(plannerEvents)
          .build();
        return planner;
      },
    });
    const events = new RecordingSubscriber();
    const sink: SubscriberEvent[] = [];
    parent
      .addSubscriber(events)
      .use({ name: "sink", onEvent: (_agent, _conversation, event) => void sink.push(event) })
      .build();

    await parent.processRequest("Plan me a trip");

    expect(spoken(events.events)).toEqual({
      "": "Here is the plan.",
      planner: "Take the 9:00.",
      "planner/researcher": "Trains leave at 9:00.",
    });
    // The bracket of the inner call was emitted by the planner: it carries the planner's path.
    expect(events.ofType("subagent_invoked").map((e) => [e.name, e.agentPath])).toEqual([
      ["planner", undefined],
      ["researcher", ["planner"]],
    ]);
    expect(events.ofType("token_consumption").map((e) => e.agentPath)).toEqual([
      undefined, // parent's first call
      ["planner"],
      ["planner", "researcher"],
      ["planner"],
      undefined,
    ]);
    // Plugins (whole-event sinks) get the same tag.
    expect(spoken(sink)).toEqual(spoken(events.events));
    // Paths are relative to the Glove subscribed to: the planner's own subscriber sees [researcher].
    expect(planner).toBeDefined();
    expect(spoken(plannerEvents.events)).toEqual({ "": "Take the 9:00.", researcher: "Trains leave at 9:00." });
  });
});
