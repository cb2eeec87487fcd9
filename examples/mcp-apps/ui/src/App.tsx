/**
 * The MCP Apps demo page: glove-react in server mode on the demo's glove-server (/api). Apps
 * render through the default `mcp_app` renderer under `McpAppHost`: their tool calls go to the
 * demo's route (the conversation's permission prompt decides), their messages become the user's. The conversation id
 * lives in the URL (?c=…), so a reload shows the same apps again.
 */
import { useCallback, useState, type FormEvent, type ReactNode } from "react";
import {
  McpAppHost,
  Render,
  useGlove,
  type McpAppTheme,
  type McpAppToolCall,
  type McpAppToolResult,
} from "glove-react";

const API = "/api";
const TOOLS_CALL = "/api/mcp-apps/tools-call";

function conversationFromUrl(): string | undefined {
  return new URLSearchParams(window.location.search).get("c") ?? undefined;
}

async function callTool(conversationId: string | null, call: McpAppToolCall): Promise<McpAppToolResult> {
  const response = await fetch(TOOLS_CALL, {
    method: "POST",
    headers: { "content-type": "application/json" },
    credentials: "same-origin",
    // The server is the slot's, never one the app names: an app reaches only its own server.
    body: JSON.stringify({ conversationId, server: call.app.server.id, name: call.name, arguments: call.arguments }),
  });
  const body = (await response.json()) as McpAppToolResult & { message?: string };
  if (!response.ok) throw new Error(body.message ?? `The tool call failed (${response.status}).`);
  return body;
}

export function App(): ReactNode {
  const [conversationId, setConversationId] = useState(conversationFromUrl);
  const onConversationChange = useCallback((id: string | null) => {
    setConversationId(id ?? undefined);
    const url = new URL(window.location.href);
    if (id) url.searchParams.set("c", id);
    else url.searchParams.delete("c");
    window.history.replaceState(null, "", url);
  }, []);
  const [theme, setTheme] = useState<McpAppTheme>("light");
  const glove = useGlove({
    server: API,
    agent: "apps",
    conversationId,
    onConversationChange,
    credentials: "same-origin",
  });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const field = event.currentTarget.elements.namedItem("message") as HTMLInputElement | null;
    const text = field?.value.trim();
    if (!field || !text) return;
    glove.sendMessage(text);
    field.value = "";
  };
  return (
    <main style={{ maxWidth: 760, margin: "0 auto", fontFamily: "system-ui, sans-serif" }}>
      <h1>MCP Apps in Glove</h1>
      <p>
        Ask for &ldquo;the time&rdquo; or &ldquo;the budget&rdquo;: the server&rsquo;s app renders below, sandboxed.
      </p>
      <button type="button" onClick={() => setTheme(theme === "light" ? "dark" : "light")}>
        {theme === "light" ? "Dark apps" : "Light apps"}
      </button>
      {/* The default mcp_app renderer reads these; a new theme reaches running apps without reloading them. */}
      <McpAppHost
        theme={theme}
        callTool={(call) => callTool(glove.sessionId, call)}
        sendMessage={(text) => void glove.sendMessage(text)}
      >
        <Render glove={glove} renderInput={null} className="timeline" />
      </McpAppHost>
      <form onSubmit={onSubmit}>
        <input
          name="message"
          aria-label="Message"
          placeholder="Show me the time"
          autoComplete="off"
          style={{ width: "70%" }}
        />
        <button type="submit" disabled={glove.busy}>
          Send
        </button>
      </form>
    </main>
  );
}
