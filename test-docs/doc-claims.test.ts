import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { INBOX_TOOL_NAME, SKILL_INVOKE_TOOL_NAME, SUBAGENT_DISPATCH_TOOL_NAME, TASK_TOOL_NAME } from "glove-core";

// Claims of the docs that no code block can check: that they name everything there is. Each
// list is read from the code (or the repository), so a new package, option or member that the
// docs do not mention fails here.

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const read = (path: string) => readFileSync(join(root, path), "utf8");

/** The members of an exported interface, read from its source (names at two spaces' indent). */
function membersOf(path: string, name: string): string[] {
  const body = read(path).match(new RegExp(`export interface ${name}(?:<[^>]*>)? \\{\\n([\\s\\S]*?)\\n\\}`))?.[1];
  if (!body) throw new Error(`no interface ${name} in ${path}`);
  return [...body.matchAll(/^ {2}(?:readonly )?(\w+)\??[:(<]/gm)].map((m) => m[1]!);
}

const packages = readdirSync(join(root, "packages")).filter(
  (name) => !JSON.parse(read(`packages/${name}/package.json`)).private,
);

describe("the docs name everything", () => {
  it("the install command packs every package", () => {
    const command = read("README.md").match(/npm pack [^\n]*\\\n([^\n]*)/)?.[1] ?? "";
    expect(packages.filter((name) => !command.includes(`-w ${name}`))).toEqual([]);
  });

  it("docs/README.md links every package's README and every concept and guide page", () => {
    const index = read("docs/README.md");
    const pages = ["concepts", "guides"].flatMap((dir) =>
      readdirSync(join(root, "docs", dir)).map((file) => `${dir}/${file}`),
    );
    const missing = [...packages.map((name) => `../packages/${name}/README.md`), ...pages].filter(
      (link) => !index.includes(`](${link})`),
    );
    expect(missing).toEqual([]);
  });

  it("built-ins.md names every built-in tool and every builtIns switch", () => {
    const page = read("docs/concepts/built-ins.md");
    const tools = [TASK_TOOL_NAME, INBOX_TOOL_NAME, SKILL_INVOKE_TOOL_NAME, SUBAGENT_DISPATCH_TOOL_NAME];
    expect(tools.filter((tool) => !page.includes(`\`${tool}\``))).toEqual([]);
    const switches = membersOf("packages/glove-core/src/types/glove.ts", "BuiltInOptions");
    expect(switches.length).toBeGreaterThan(0);
    expect(switches.filter((key) => !page.includes(`${key}: false`))).toEqual([]);
  });

  it("the testing guide names every ScriptedModel option and method", () => {
    const page = read("docs/guides/testing.md");
    const options = membersOf("packages/glove-core/src/testing/scripted-model.ts", "ScriptedModelOptions");
    const methods = ["push(", "remaining", "requests"];
    expect([...options.map((key) => `\`${key}`), ...methods].filter((name) => !page.includes(name))).toEqual([]);
  });

  it("the React guide names everything a slot renderer receives", () => {
    const page = read("docs/guides/react.md");
    const members = membersOf("packages/glove-client/src/types/tool.ts", "SlotRenderProps");
    expect(members).toContain("issues");
    expect(members.filter((key) => !page.includes(`\`${key}\``))).toEqual([]);
  });
});
