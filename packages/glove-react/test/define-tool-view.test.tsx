import { renderToString } from "react-dom/server";
import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { Displaymanager, Glove, GloveError, MemoryStore, type ToolResultData } from "glove-core";
import { ScriptedModel } from "glove-core/testing";
import {
  DisplayPropsError,
  LocalSession,
  Render,
  defineTool,
  defineToolView,
  useGlove,
  type ConversationSnapshot,
  type SlotIssue,
  type ToolSchemas,
  type ToolView,
} from "glove-react";

// The module a server and its page would share: schemas only, no `do`.
const askAgeSchemas = {
  name: "ask_age",
  description: "Asks the user's age.",
  inputSchema: z.object({ question: z.string() }),
  displayPropsSchema: z.object({ question: z.string(), max: z.number().default(120) }),
  resolveSchema: z.object({ age: z.number().int().min(0) }),
  renderDataSchema: z.object({ age: z.number(), note: z.string().default("") }),
  displayStrategy: "hide-on-complete",
} satisfies ToolSchemas;

// The server's side: the same schemas type what `do` pushes, gets back and returns.
const askAge = defineTool({
  ...askAgeSchemas,
  async do(input, display) {
    const { age } = await display.pushAndWait({ question: input.question });
    return { status: "success", data: `Age ${age}`, renderData: { age } };
  },
});

// The browser's side: typed renderers, no `do`.
const askAgeView = defineToolView({
  ...askAgeSchemas,
  render({ props, resolve, issues }) {
    expectTypeOf(props).toEqualTypeOf<{ question: string; max: number }>();
    expectTypeOf(resolve).toEqualTypeOf<(value: { age: number }) => void>();
    expectTypeOf(issues).toEqualTypeOf<SlotIssue[] | undefined>();
    return <form data-question={props.question}>{props.question}</form>;
  },
  renderResult: ({ data }) => {
    expectTypeOf(data).toEqualTypeOf<{ age: number; note: string }>();
    return <p>Age on file: {data.age}</p>;
  },
});

const snapshot: ConversationSnapshot = {
  id: "conv-1",
  agent: "assistant",
  title: null,
  messages: [
    { sender: "user", text: "sign me up" },
    {
      sender: "agent",
      text: "",
      tool_calls: [{ id: "call_1", tool_name: "ask_age", input_args: { question: "Age?" } }],
    },
    {
      sender: "user",
      text: "",
      tool_results: [
        {
          tool_name: "ask_age",
          call_id: "call_1",
          result: { status: "success", data: "Age 40", renderData: { age: 40, note: "" } },
        },
      ],
    },
    {
      sender: "agent",
      text: "",
      tool_calls: [{ id: "call_2", tool_name: "ask_age", input_args: { question: "And now?" } }],
    },
  ],
  slots: [
    {
      id: "slot-2",
      renderer: "ask_age",
      input: { question: "And now?", max: 120 },
      toolName: "ask_age",
      toolCallId: "call_2",
      displayStrategy: "hide-on-complete",
      mode: "wait",
      status: "pending",
    },
  ],
  tasks: [],
  inbox: [],
  busy: true,
  turnId: "turn-2",
  streamingText: "",
  lastEventId: 7,
};

describe("defineToolView", () => {
  it("is the tool's name, strategy and the user's own renderers, with no do", () => {
    expect(Object.keys(askAgeView).sort()).toEqual(["displayStrategy", "name", "render", "renderResult"]);
    expect(askAgeView).toMatchObject({ name: "ask_age", displayStrategy: "hide-on-complete" });
    expect("do" in askAgeView).toBe(false);
    // A full tool is a view too: both go in useGlove's `tools`.
    const tools: ToolView[] = [askAgeView, askAge];
    expect(tools.map((tool) => tool.name)).toEqual(["ask_age", "ask_age"]);
    expect(defineToolView({ name: "plain" })).toEqual({ name: "plain" });
  });

  it("draws a server conversation's slots and results (server mode)", () => {
    function Conversation() {
      const glove = useGlove({
        server: "/api/glove",
        conversationId: snapshot.id,
        initialSnapshot: snapshot,
        tools: [askAgeView],
      });
      return <Render glove={glove} strategy="interleaved" />;
    }
    const html = renderToString(<Conversation />);
    expect(html).toContain("Age on file: <!-- -->40");
    expect(html).toContain('data-question="And now?"');
  });

  it("refuses a view in local mode, naming the tool and what to do instead", () => {
    function Local() {
      useGlove({ model: new ScriptedModel([]), systemPrompt: "x", tools: [askAgeView] });
      return null;
    }
    const thrown = (() => {
      try {
        renderToString(<Local />);
      } catch (error) {
        return error;
      }
    })();
    expect(GloveError.isInstance(thrown)).toBe(true);
    expect(String((thrown as Error).message)).toMatch(
      /Tool "ask_age" has no do\(\).*defineToolView.*defineTool\(\{ \.\.\., do \}\).*useGlove\(\{ server \}\)/,
    );
    const session = new LocalSession({ model: new ScriptedModel([]), systemPrompt: "x" });
    expect(() => session.setTools([askAgeView])).toThrow(/has no do\(\)/);
  });
});

describe("defineTool's renderDataSchema", () => {
  async function run(tool: ReturnType<typeof defineTool>): Promise<ToolResultData> {
    const display = new Displaymanager();
    display.subscribe((stack) => stack.forEach((slot) => display.resolve(slot.id, { age: 40 })));
    const glove = new Glove({
      store: new MemoryStore("s"),
      model: new ScriptedModel([{ toolCalls: [{ name: tool.name, input: { question: "Age?" } }] }, { text: "Done." }]),
      displayManager: display,
      systemPrompt: "x",
      compaction_config: { compaction_instructions: "Summarize." },
    })
      .fold(tool)
      .build();
    await glove.processRequest("go");
    return (await glove.store.getMessages()).flatMap((m) => m.tool_results ?? [])[0]!.result;
  }

  it("parses what do returns: the stored renderData has the schema's defaults", async () => {
    expect(await run(askAge)).toMatchObject({ status: "success", data: "Age 40", renderData: { age: 40, note: "" } });
  });

  it("fails the call when do returns renderData that does not match", async () => {
    const broken = defineTool({
      ...askAgeSchemas,
      async do() {
        return { status: "success", data: "x", renderData: { age: "forty" } as unknown as { age: number } };
      },
    });
    const result = await run(broken);
    expect(result.status).toBe("error");
    expect(String(result.message ?? result.data)).toMatch(
      /returned renderData that do not match its renderDataSchema: age: .*Fix the renderData the tool's do\(\) returns/,
    );
    const error = new DisplayPropsError("ask_age", [{ path: "age", message: "Expected number" }], "renderDataSchema");
    expect(error).toMatchObject({ schema: "renderDataSchema", code: "GLOVE_DISPLAY_INVALID_PROPS" });
  });

  it("types renderData from the schema: a mismatch does not compile", () => {
    defineTool({
      ...askAgeSchemas,
      // @ts-expect-error renderData must match renderDataSchema's input
      async do() {
        return { status: "success", data: "x", renderData: { age: "old" } };
      },
    });
    defineTool({
      ...askAgeSchemas,
      async do() {
        return "a plain string result needs no renderData";
      },
    });
  });
});
