// @vitest-environment happy-dom
import { createApp, createSSRApp, h, nextTick, ref, type App } from "vue";
import { renderToString } from "vue/server-renderer";
import { afterEach, describe, expect, it } from "vitest";
import { McpAppFrame, McpAppHost, type McpAppSlotProps, type ConversationSnapshot } from "glove-vue";
import { Chat } from "./support/chat.js";

const app = (html = "<p>Hello from the app</p>"): McpAppSlotProps => ({
  server: { id: "budget", name: "Budget" },
  tool: { name: "allocate", bridgedName: "budget__allocate", title: "Allocate a budget", inputSchema: {} },
  resource: { uri: "ui://budget/app.html", mimeType: "text/html;profile=mcp-app", html, csp: { connectDomains: [] } },
  toolInput: { total: 100 },
  toolResult: { content: [{ type: "text", text: "ok" }] },
});

let mounted: App | undefined;
afterEach(() => {
  mounted?.unmount();
  mounted = undefined;
  document.body.innerHTML = "";
});

describe("McpAppFrame", () => {
  it("draws the app in a sandboxed frame (scripts only) with a CSP as its document's first element", async () => {
    const container = document.createElement("div");
    document.body.appendChild(container);
    const current = ref(app());
    const key = ref("slot-1");
    mounted = createApp({
      render: () =>
        h(McpAppHost, { options: { theme: "dark", maxHeight: 300 } }, () =>
          h(McpAppFrame, { app: current.value, appKey: key.value }),
        ),
    });
    mounted.mount(container);
    await nextTick();
    const frame = container.querySelector("iframe")!;
    expect(frame.getAttribute("sandbox")).toBe("allow-scripts");
    expect(frame.getAttribute("referrerpolicy")).toBe("no-referrer");
    expect(frame.getAttribute("title")).toBe("Allocate a budget");
    expect(frame.getAttribute("data-mcp-app")).toBe("ui://budget/app.html");
    const srcdoc = frame.getAttribute("srcdoc") ?? frame.srcdoc;
    expect(srcdoc).toMatch(/^<!DOCTYPE html><meta http-equiv="Content-Security-Policy"/i);
    expect(srcdoc).toContain("Hello from the app");

    // A new object for the same slot (a snapshot after reconnecting) keeps the app loaded…
    frame.srcdoc = "kept";
    current.value = { ...app(), toolInput: { total: 200 } };
    await nextTick();
    expect(frame.srcdoc).toBe("kept");
    // …another slot loads the new app.
    current.value = app("<p>Another app</p>");
    key.value = "slot-2";
    await nextTick();
    expect(frame.srcdoc).toContain("Another app");
  });
});

describe("the default mcp_app renderer", () => {
  it("renders an mcp_app slot as the sandboxed frame, on the server too (without loading the app)", async () => {
    const snapshot: ConversationSnapshot = {
      id: "c-apps",
      messages: [
        { sender: "user", text: "Split the budget" },
        { sender: "agent", text: "", tool_calls: [{ id: "call_1", tool_name: "budget__allocate", input_args: {} }] },
      ],
      slots: [
        {
          id: "slot-app",
          renderer: "mcp_app",
          input: app(),
          toolName: "budget__allocate",
          toolCallId: "call_1",
          displayStrategy: "stay",
          mode: "forget",
          status: "shown",
        },
      ],
      tasks: [],
      inbox: [],
      busy: false,
      turnId: null,
      streamingText: "",
    };
    const html = await renderToString(
      createSSRApp({ render: () => h(Chat, { config: { server: "/api", initialSnapshot: snapshot } }) }),
    );
    expect(html).toMatch(/<iframe[^>]*sandbox="allow-scripts"[^>]*data-glove-role="mcp-app"/);
    expect(html).not.toContain("srcdoc");
    expect(html).not.toContain("unknown-renderer");
  });
});
