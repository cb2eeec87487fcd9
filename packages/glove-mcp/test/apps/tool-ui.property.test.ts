/** Tool `_meta.ui` as servers send it: any JSON, read without throwing and without inventing access. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { appResourceUri, appVisibility, visibleToApp, visibleToModel, type McpTool } from "glove-mcp";

function tool(meta: unknown): McpTool {
  return { name: "t", inputSchema: { type: "object" }, _meta: meta as McpTool["_meta"] };
}

describe("tool ui metadata", () => {
  it("never throws, and only ui:// URIs and the two known audiences come out of any _meta", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.jsonValue(), fc.record({ ui: fc.jsonValue(), "ui/resourceUri": fc.jsonValue() })),
        (meta) => {
          const t = tool(meta !== null && typeof meta === "object" && !Array.isArray(meta) ? meta : undefined);
          const uri = appResourceUri(t);
          expect(uri === undefined || uri.startsWith("ui://")).toBe(true);
          for (const audience of appVisibility(t)) expect(["model", "app"]).toContain(audience);
        },
      ),
    );
  });

  it("a visibility list grants exactly the audiences it names", () => {
    const entry = fc.oneof(fc.constant("model"), fc.constant("app"), fc.string(), fc.integer());
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 6 }), (visibility) => {
        const t = tool({ ui: { resourceUri: "ui://x", visibility } });
        expect(visibleToModel(t)).toBe(visibility.includes("model"));
        expect(visibleToApp(t)).toBe(visibility.includes("app"));
      }),
    );
  });

  it("without a visibility list both may call; the flat legacy key still names the resource", () => {
    expect(visibleToModel(tool({ ui: { resourceUri: "ui://a" } }))).toBe(true);
    expect(visibleToApp(tool(undefined))).toBe(true);
    expect(appResourceUri(tool({ "ui/resourceUri": "ui://legacy" }))).toBe("ui://legacy");
    expect(appResourceUri(tool({ ui: { resourceUri: "https://evil.example/app.html" } }))).toBeUndefined();
  });
});
