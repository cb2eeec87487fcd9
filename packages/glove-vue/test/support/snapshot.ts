import type { ConversationSnapshot } from "glove-vue";

/** A conversation as glove-server's GET /conversations/:id answers it (fetched by the page's server). */
export const snapshot: ConversationSnapshot = {
  id: "conv-1",
  agent: "assistant",
  title: "Cards",
  messages: [
    { sender: "user", text: "Answer in one line.", is_skill_injection: true },
    {
      sender: "user",
      text: "[invoked_extension__skill_concise] show a card",
      pre_modified_text: "/concise show a card",
    },
    {
      sender: "agent",
      text: "Here is your card.",
      tool_calls: [{ id: "call_card", tool_name: "show_card", input_args: { title: "Tokyo" } }],
    },
    {
      sender: "user",
      text: "",
      tool_results: [
        {
          tool_name: "show_card",
          call_id: "call_card",
          result: { status: "success", data: "shown", renderData: { card: "Tokyo" } },
        },
      ],
    },
    { sender: "agent", text: "Anything else?" },
    { sender: "user", text: "[Summary] They looked at a Tokyo card.", is_compaction: true },
    { sender: "user", text: "how old am I?" },
    {
      sender: "agent",
      text: "",
      tool_calls: [{ id: "call_age", tool_name: "ask_age", input_args: { question: "How old?" } }],
    },
  ],
  slots: [
    {
      id: "slot-age",
      renderer: "ask_age",
      input: { question: "How old?" },
      toolName: "ask_age",
      toolCallId: "call_age",
      displayStrategy: "hide-on-complete",
      mode: "wait",
      status: "pending",
    },
    {
      id: "slot-perm",
      renderer: "permission_request",
      input: { tool_name: "delete_file", input: { path: "a.txt" }, call_id: "call_x" },
      toolName: "delete_file",
      toolCallId: "call_x",
      displayStrategy: null,
      mode: "wait",
      status: "pending",
    },
    {
      id: "slot-odd",
      renderer: "weather_map",
      input: { city: "Oslo" },
      toolName: "weather",
      toolCallId: null,
      displayStrategy: null,
      mode: "forget",
      status: "shown",
    },
  ],
  tasks: [{ id: "t1", content: "Find a card", activeForm: "Finding a card", status: "completed" }],
  inbox: [],
  busy: true,
  turnId: "turn-9",
  streamingText: "",
  lastEventId: 42,
};
