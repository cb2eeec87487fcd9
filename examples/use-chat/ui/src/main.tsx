import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { GloveChatTransport } from "glove-react/ai-sdk";
import { Chat } from "./chat.js";

// The one change to an AI SDK page: this transport instead of DefaultChatTransport({ api }).
const transport = new GloveChatTransport({ server: "/api" });

/** The chat named in the address (`?chat=<conversation id>`), or a new one; its history from the server. */
async function boot(): Promise<void> {
  const url = new URL(window.location.href);
  let id = url.searchParams.get("chat");
  if (!id) {
    id = await transport.createChat();
    url.searchParams.set("chat", id);
    window.history.replaceState(null, "", url);
  }
  const messages = await transport.loadMessages(id);
  createRoot(document.getElementById("root")!).render(
    <StrictMode>
      <Chat id={id} initialMessages={messages} transport={transport} loadMessages={() => transport.loadMessages(id)} />
    </StrictMode>,
  );
}

void boot();
