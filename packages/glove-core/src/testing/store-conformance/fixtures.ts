import type { InboxItem, Message, StoredWait, Task } from "../../types/index.js";

/** Messages exercising every field and flag of `Message`, content parts and tool payloads. */
export function conformanceMessages(): Message[] {
  return [
    {
      sender: "user",
      id: "m-user-1",
      text: "Héllo — what's the weather in 東京? 🌧️ \"quoted\" 'single' \\ back\\slash\nnew line\ttab",
      pre_modified_text: "/weather Héllo — what's the weather in 東京?",
      content: [
        { type: "text", text: "Look at this:" },
        {
          type: "image",
          source: {
            type: "base64",
            media_type: "image/png",
            data: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
          },
        },
        {
          type: "image",
          source: { type: "url", media_type: "image/jpeg", url: "https://example.com/cat.jpg?size=large&q=1" },
        },
        { type: "document", source: { type: "base64", media_type: "application/pdf", data: "JVBERi0xLjQK" } },
        { type: "video", source: { type: "url", media_type: "video/mp4", url: "https://example.com/v.mp4" } },
      ],
    },
    {
      sender: "agent",
      id: "m-agent-1",
      text: "",
      reasoning_content: "The user wants weather. I should call get_weather twice.\n<thinking>ok</thinking>",
      tool_calls: [
        {
          tool_name: "get_weather",
          id: "call_1",
          input_args: {
            city: "Tokyo",
            units: ["c", "f"],
            days: 3,
            exact: true,
            note: null,
            nested: { a: { b: [1, 2.5, -3] } },
          },
        },
        { tool_name: "get_time", id: "call_2", input_args: {} },
        { tool_name: "no_id_tool", input_args: "raw string arguments" },
      ],
    },
    {
      sender: "user",
      text: "",
      tool_results: [
        {
          tool_name: "get_weather",
          call_id: "call_1",
          result: {
            status: "success",
            data: { city: "Tokyo", temps: [21.5, 22, null], sky: "rain", ok: true },
            renderData: { card: { title: "Tokyo", icon: "🌧️", rows: [["mon", 21.5]] } },
            summary: "Tokyo: rain, 21.5°C",
            generateSummaryArgs: { city: "Tokyo", rows: 1 },
          },
        },
        {
          tool_name: "get_time",
          call_id: "call_2",
          result: { status: "error", data: null, message: "clock unavailable" },
        },
        { tool_name: "no_id_tool", result: { status: "aborted", data: "partial", message: "aborted by the user" } },
      ],
    },
    { sender: "agent", text: "It's raining in Tokyo.", reasoning_content: "" },
    { sender: "user", text: "Please compact now.", is_compaction_request: true },
    { sender: "agent", id: "m-summary", text: "Summary: the user asked about Tokyo weather.", is_compaction: true },
    {
      sender: "user",
      text: "Skill: be concise.",
      is_skill_injection: true,
      content: [{ type: "text", text: "be concise" }],
    },
    { sender: "agent", text: "x".repeat(70_000) },
    {
      sender: "user",
      text: "all flags",
      is_compaction: false,
      is_compaction_request: false,
      is_skill_injection: false,
      tool_calls: [],
      tool_results: [],
      content: [],
    },
    {
      sender: "agent",
      text: "numbers",
      tool_calls: [{ tool_name: "n", id: "c9", input_args: [0, 1, -1, 1.5e300, 9007199254740991, "0", ""] }],
    },
  ];
}

export function plainMessages(label: string, count: number): Message[] {
  return Array.from({ length: count }, (_, i) => ({
    sender: i % 2 === 0 ? ("user" as const) : ("agent" as const),
    text: `${label}#${i}`,
  }));
}

export function task(id: string, status: Task["status"] = "pending"): Task {
  return { id, content: `Do ${id}`, activeForm: `Doing ${id}`, status };
}

export function inboxItem(id: string, overrides: Partial<InboxItem> = {}): InboxItem {
  return {
    id,
    tag: `tag_${id}`,
    request: `When is ${id} back in stock? «unicode» ✓`,
    response: null,
    status: "pending",
    blocking: false,
    created_at: "2026-01-02T03:04:05.678Z",
    resolved_at: null,
    ...overrides,
  };
}

/** A pending question of call `toolCallId` at `position`; steps and settled waits by `overrides`. */
export function storedWait(id: string, overrides: Partial<StoredWait> = {}): StoredWait {
  return {
    id,
    kind: "question",
    toolCallId: "call_1",
    toolName: "checkout",
    position: 0,
    renderer: "confirm_purchase",
    input: { item: `item ${id}`, price: 4.5 },
    status: "pending",
    created_at: "2026-01-02T03:04:05.678Z",
    settled_at: null,
    ...overrides,
  };
}
