import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { Displaymanager, Glove, type ToolResultData } from "glove-core";
import { ScriptedModel } from "glove-core/testing";
import { DisplayPropsError, defineTool, type SlotIssue, type ToolConfig, type TypedDisplay } from "glove-react";

const askAge = defineTool({
  name: "ask_age",
  description: "Asks the user's age.",
  inputSchema: z.object({ question: z.string() }),
  displayPropsSchema: z.object({ question: z.string(), max: z.number().default(120) }),
  resolveSchema: z.object({ age: z.number().int().min(0) }),
  displayStrategy: "hide-on-complete",
  async do(input, display) {
    expectTypeOf(input).toEqualTypeOf<{ question: string }>();
    // What do pushes is the schema's input (defaults optional); the answer is the resolve schema's output.
    expectTypeOf(display).toEqualTypeOf<
      TypedDisplay<{ question: string; max?: number | undefined }, { age: number }>
    >();
    const answer = await display.pushAndWait({ question: input.question });
    expectTypeOf(answer).toEqualTypeOf<{ age: number }>();
    return { status: "success" as const, data: `Age ${answer.age}`, renderData: { age: answer.age } };
  },
  render({ props, resolve, reject, issues }) {
    // render gets the parsed props (defaults applied) and resolves with the schema's input type.
    expectTypeOf(props).toEqualTypeOf<{ question: string; max: number }>();
    expectTypeOf(resolve).toEqualTypeOf<(value: { age: number }) => void>();
    expectTypeOf(reject).toEqualTypeOf<(reason?: string) => void>();
    expectTypeOf(issues).toEqualTypeOf<SlotIssue[] | undefined>();
    return null;
  },
  renderResult({ data, status }) {
    // renderResult's data is the renderData that do returns.
    expectTypeOf(data).toEqualTypeOf<{ age: number }>();
    expectTypeOf(status).toEqualTypeOf<"success" | "error" | "aborted">();
    return null;
  },
});

describe("defineTool", () => {
  it("types flow from the schemas into do and render", () => {
    expectTypeOf(askAge).toEqualTypeOf<ToolConfig<{ question: string }>>();
    // A typed tool goes in a plain ToolConfig[] (what useGlove takes).
    const tools: ToolConfig[] = [askAge];
    expect(tools).toHaveLength(1);
  });

  it("without a resolveSchema the answer is unknown and resolve may be called empty", () => {
    defineTool({
      name: "confirm",
      description: "OK button.",
      inputSchema: z.object({}),
      displayPropsSchema: z.object({ text: z.string() }),
      async do(_input, display) {
        const answer = await display.pushAndWait({ text: "Done?" });
        expectTypeOf(answer).toBeUnknown();
        // @ts-expect-error the props must match displayPropsSchema
        void display.pushAndForget({ txt: "typo" });
        return "ok";
      },
      render({ resolve }) {
        resolve();
        return null;
      },
    });
  });

  it("is a Glove.fold argument: the same definition runs in a server-side Glove", async () => {
    const display = new Displaymanager();
    display.subscribe((stack) => {
      for (const slot of stack) display.resolve(slot.id, { age: 41 });
    });
    const glove = new Glove({
      model: new ScriptedModel([
        { toolCalls: [{ name: "ask_age", input: { question: "Age?" } }] },
        { text: "Thanks." },
      ]),
      displayManager: display,
      systemPrompt: "Ask ages.",
      compaction_config: { compaction_instructions: "Summarize." },
    })
      .fold(askAge)
      .build();
    await glove.processRequest("sign me up");
    const results = (await glove.store.getMessages()).flatMap((m) => m.tool_results ?? []);
    expect(results[0]!.result).toMatchObject({ status: "success", data: "Age 41", renderData: { age: 41 } });
  });

  it("checks pushed props at run time: a mismatch fails the call with the issues", async () => {
    const broken = defineTool({
      name: "broken",
      description: "Pushes the wrong props.",
      inputSchema: z.object({}),
      displayPropsSchema: z.object({ title: z.string() }),
      async do(_input, display) {
        await display.pushAndForget({ title: 42 } as unknown as { title: string });
        return "never";
      },
    });
    const glove = new Glove({
      model: new ScriptedModel([{ toolCalls: [{ name: "broken", input: {} }] }, { text: "Sorry." }]),
      displayManager: new Displaymanager(),
      systemPrompt: "x",
      compaction_config: { compaction_instructions: "Summarize." },
    })
      .fold(broken)
      .build();
    await glove.processRequest("go");
    const result = (await glove.store.getMessages()).flatMap((m) => m.tool_results ?? [])[0]!.result as ToolResultData;
    expect(result.status).toBe("error");
    expect(String(result.message ?? result.data)).toContain("title");
    const error = new DisplayPropsError("broken", [{ path: "title", message: "Expected string" }]);
    expect(DisplayPropsError.isInstance(error)).toBe(true);
    expect(error.code).toBe("GLOVE_DISPLAY_INVALID_PROPS");
  });
});
