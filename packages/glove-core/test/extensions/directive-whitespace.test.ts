import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { Displaymanager, Glove, MemoryStore } from "glove-core";
import { ScriptedModel } from "glove-core/testing";

function agent(model: ScriptedModel) {
  return new Glove({
    store: new MemoryStore("s"),
    model,
    displayManager: new Displaymanager(),
    systemPrompt: "",
    compaction_config: { compaction_instructions: "" },
  })
    .defineHook("review", async () => undefined)
    .defineSkill({ name: "style", description: "style guide", handler: async () => "Use tabs." })
    .build();
}

describe("a bound directive changes only its own surroundings", () => {
  it("keeps the indentation and double spaces of code in the message", async () => {
    const model = new ScriptedModel([{ text: "ok" }]);
    const code = "def f(x):\n    if x:\n        return  x * 2\n\treturn 0";
    await agent(model).processRequest(`/review please check:\n${code}`);
    const sent = model.requests[0]!.messages.at(-1)!.text;
    expect(sent).toBe(`[invoked_extension__hook_review] please check:\n${code}`);
  });

  it("property: every line without the token reaches the model byte for byte", async () => {
    const line = fc.stringMatching(/^[ \t]{0,6}[a-z(){}=*+ \t]{0,30}$/);
    await fc.assert(
      fc.asyncProperty(
        fc.array(line, { minLength: 1, maxLength: 6 }),
        fc.constantFrom("/review", "/style"),
        fc.boolean(),
        async (lines, token, atEnd) => {
          const model = new ScriptedModel([{ text: "ok" }]);
          const tokenLine = atEnd ? `thanks ${token}` : `${token} look at this`;
          const text = [tokenLine, ...lines].join("\n");
          await agent(model).processRequest(text);
          const stored = model.requests[0]!.messages.filter((m) => m.sender === "user" && !m.is_skill_injection).at(
            -1,
          )!.text;
          expect(stored.split("\n").slice(1)).toEqual(lines);
        },
      ),
      { numRuns: 60 },
    );
  });
});
