/**
 * An assistant-ui chat on its AG-UI runtime. Nothing here knows about Glove: the page talks to
 * glove-server's AG-UI route (`/api/ag-ui`) through the official `HttpAgent`, as it would to any
 * AG-UI agent. The server authenticates the page by the cookie it set with index.html.
 */
import { HttpAgent } from "@ag-ui/client";
import { AssistantRuntimeProvider } from "@assistant-ui/react";
import { useAgUiRuntime } from "@assistant-ui/react-ag-ui";
import { StrictMode, useMemo } from "react";
import { createRoot } from "react-dom/client";
import { Chat } from "./chat.js";
import "./styles.css";

function App() {
  // One thread per page load: a random UUID, which the server takes as a new conversation.
  const agent = useMemo(() => new HttpAgent({ url: "/api/ag-ui" }), []);
  const runtime = useAgUiRuntime({ agent });
  return (
    <AssistantRuntimeProvider runtime={runtime}>
      <Chat />
    </AssistantRuntimeProvider>
  );
}

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
