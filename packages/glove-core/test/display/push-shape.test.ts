import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { beforeAll, describe, expect, it } from "vitest";
import { Glove } from "glove-core";
import { ScriptedModel } from "glove-core/testing";
import { SLOW_WORK_MS } from "../../../../test-support/timeouts.js";

// A fold's display takes { input: props }; glove-react's defineTool display takes the props. The
// wrong one is a type error that says which shape to use.
const here = dirname(fileURLToPath(import.meta.url));

/** The type errors of each snippet, compiled together next to this test against glove-core's sources. */
function typeErrors(snippets: Record<string, string>): Record<string, string[]> {
  const pathOf = (name: string) => join(here, `push-shape.${name}.ts`);
  const files = new Map(Object.entries(snippets).map(([name, code]) => [pathOf(name), code]));
  const options: ts.CompilerOptions = {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    customConditions: ["glove-source"],
    target: ts.ScriptTarget.ES2022,
    lib: ["lib.es2023.d.ts", "lib.dom.d.ts"],
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (name) => files.has(name) || fileExists(name);
  host.readFile = (name) => files.get(name) ?? readFile(name);
  host.getSourceFile = (name, version) => {
    const code = files.get(name);
    return code === undefined ? getSourceFile(name, version) : ts.createSourceFile(name, code, version);
  };
  const program = ts.createProgram([...files.keys()], options, host);
  const errorsOf = (name: string) =>
    ts
      .getPreEmitDiagnostics(program, program.getSourceFile(pathOf(name)))
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
  return Object.fromEntries(Object.keys(snippets).map((name) => [name, errorsOf(name)]));
}

const fold = (body: string) => `import { Glove } from "glove-core";
import { ScriptedModel } from "glove-core/testing";
new Glove({ model: new ScriptedModel([]), systemPrompt: "" }).fold({
  name: "ask",
  description: "Asks.",
  async do(_input, display) {
    ${body}
    return "ok";
  },
});
`;

describe("the shape of a push", () => {
  let errors: Record<string, string[]> = {};
  beforeAll(() => {
    errors = typeErrors({
      bareProps: fold(`await display.pushAndWait({ question: "How many?" });`),
      wrapped: fold(`await display.pushAndWait({ input: { q: 1 }, renderer: "form" });`),
      explicit: fold(`await display.pushAndWait<{ q: number }, boolean>({ input: { q: 1 } });`),
      misspeltKey: fold(`await display.pushAndForget({ input: 1, rendrer: "card" });`),
      wrongInput: fold(`await display.pushAndWait<{ q: number }>({ input: { q: "one" } });`),
    });
  }, SLOW_WORK_MS);

  it("names { input: props } when a fold pushes bare props", () => {
    expect(errors.bareProps).toHaveLength(1);
    expect(errors.bareProps![0]).toContain("{ input: props }");
  });

  it("still checks the keys and types of { input, ... } pushes", () => {
    expect([errors.wrapped, errors.explicit]).toEqual([[], []]);
    expect([errors.misspeltKey?.length, errors.wrongInput?.length]).toEqual([1, 1]);
  });

  it("pushes what { input } holds", async () => {
    const glove = new Glove({
      model: new ScriptedModel([{ toolCalls: [{ name: "show", input: {} }] }, { text: "Shown." }]),
      systemPrompt: "",
    })
      .fold({
        name: "show",
        description: "Shows a card.",
        do: async (_input, display) => display.pushAndForget({ input: { title: "Card" } }),
      })
      .build();
    await glove.processRequest("show it");
    expect(glove.displayManager.stack.map((slot) => [slot.renderer, slot.input])).toEqual([
      ["show", { title: "Card" }],
    ]);
  });
});
