/** Hydrates the server's markup from the snapshot embedded beside it (a JSON script, not executed). */
import { createSSRApp } from "vue";
import type { ConversationSnapshot } from "glove-vue";
import { SsrChat } from "./ssr-chat.js";

const { snapshot, token } = JSON.parse(document.getElementById("glove-state")!.textContent!) as {
  snapshot: ConversationSnapshot;
  token: string;
};
createSSRApp(SsrChat, { snapshot, token }).mount("#root");
