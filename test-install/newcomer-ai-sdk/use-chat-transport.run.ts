// The transport from the packed glove-react, in plain node against a glove-server: a new chat,
// a message, the reply's chunks (what useChat reads), then the history as useChat's messages.
import { Displaymanager, Glove } from "glove-core";
import { ScriptedModel } from "glove-core/testing";
import { createGloveServer, memoryStorage } from "glove-server";
import { GloveChatTransport } from "glove-react/ai-sdk";

const server = createGloveServer({
  agents: {
    assistant: ({ store }) =>
      new Glove({
        store,
        model: new ScriptedModel([{ text: "Hello from Glove." }]),
        displayManager: new Displaymanager(),
        systemPrompt: "Be brief.",
      }),
  },
  authenticate: () => ({ id: "demo" }),
  store: memoryStorage(),
});
const { url } = await server.listen();
const transport = new GloveChatTransport({ server: url });
const chatId = await transport.createChat();
const stream = await transport.sendMessages({
  trigger: "submit-message",
  chatId,
  messageId: undefined,
  messages: [{ id: "m1", role: "user", parts: [{ type: "text", text: "Hi" }] }],
  abortSignal: undefined,
});
const reader = stream.getReader();
let text = "";
for (let next = await reader.read(); !next.done; next = await reader.read())
  if (next.value.type === "text-delta") text += next.value.delta;
const messages = await transport.loadMessages(chatId);
await server.close();
if (text !== "Hello from Glove." || messages.length !== 2 || messages[1]?.role !== "assistant")
  throw new Error(`unexpected: ${text} ${JSON.stringify(messages)}`);
