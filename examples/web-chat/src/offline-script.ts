/**
 * The offline "model": a scripted walkthrough of the bistro's features, played by glove-core's
 * ScriptedModel. It keeps no state of its own: the scene comes from the user's last message and
 * the step from how many agent turns answered it so far, both read from the request. So it
 * survives the server evicting a conversation and rebuilding its Glove from the store.
 */
import { INBOX_TOOL_NAME, TASK_TOOL_NAME, type Message, type PromptRequest, type ToolResult } from "glove-core";
import type { ScriptedTurn } from "glove-core/testing";
import { SUGGESTIONS } from "./shared.js";

export { SUGGESTIONS };

type Status = "pending" | "in_progress" | "completed";
type Call = { name: string; input: unknown; id: string };

interface SceneContext {
  /** What the user wrote to start this scene. */
  userText: string;
  /** Results of the previous agent turn's tool calls. */
  results: ToolResult[];
  /** Makes tool call ids unique in the whole history. */
  call(name: string, input: unknown): Call;
}

type Step = (ctx: SceneContext) => ScriptedTurn;

const BOOKING_TASKS = ["Collect the booking details", "Book the table", "Confirm the booking"] as const;

function tasks(ctx: SceneContext, ...statuses: Status[]): Call {
  const todos = BOOKING_TASKS.map((content, i) => ({
    content,
    activeForm: content.replace(/^(\w+)/, (verb) => `${verb.replace(/e$/, "")}ing`),
    status: statuses[i] ?? "pending",
  }));
  return ctx.call(TASK_TOOL_NAME, { todos });
}

function result(ctx: SceneContext, tool: string): ToolResult | undefined {
  return ctx.results.find((r) => r.tool_name === tool);
}

function guestsIn(text: string): number | undefined {
  const words: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8 };
  const match = /\b(\d{1,2}|one|two|three|four|five|six|seven|eight)\b/i.exec(text);
  if (!match) return undefined;
  const n = words[match[1]!.toLowerCase()] ?? Number(match[1]);
  return n >= 1 && n <= 12 ? n : undefined;
}

const GREETING: Step[] = [
  () => ({
    text:
      "Hello! I'm the Glove Bistro assistant, running offline on a scripted model inside glove-server. " +
      "Everything you see arrives over Server-Sent Events: this text is streamed word by word, and you can stop it with Abort. " +
      `Try "${SUGGESTIONS[1]}" for a card, or "${SUGGESTIONS[2]}" for a form, a permission prompt and a task list, ` +
      `or "${SUGGESTIONS[3]}" for the inbox.`,
  }),
];

const MENU_SCENE: Step[] = [
  (ctx) => ({
    text: "Here is today's menu.",
    toolCalls: [ctx.call("show_menu", { note: "Everything is vegetarian except the trout." })],
  }),
  () => ({ text: 'Anything catch your eye? Say "book a table" and I\'ll reserve one.' }),
];

const BOOKING: Step[] = [
  (ctx) => ({
    text: "Happy to book a table. I'll keep a task list while I do.",
    toolCalls: [tasks(ctx, "in_progress"), ctx.call("show_menu", { note: "Have a look while you fill in the form." })],
  }),
  (ctx) => {
    const guests = guestsIn(ctx.userText);
    return {
      toolCalls: [
        ctx.call("reservation_form", {
          question: "Who is the table for, how many guests, and what time?",
          ...(guests ? { guests } : {}),
        }),
      ],
    };
  },
  (ctx) => {
    const form = result(ctx, "reservation_form");
    if (form?.result.status !== "success") {
      return {
        text: "No problem, I won't book anything.",
        toolCalls: [tasks(ctx, "completed", "completed", "completed")],
      };
    }
    return {
      text: "Thanks! Booking it now; glove-core will ask for your permission first.",
      toolCalls: [tasks(ctx, "completed", "in_progress"), ctx.call("book_table", form.result.data)],
    };
  },
  (ctx) => {
    const booked = result(ctx, "book_table");
    if (booked?.result.status === "success") {
      return {
        text: `${String(booked.result.data)} See you soon!`,
        toolCalls: [tasks(ctx, "completed", "completed", "completed")],
      };
    }
    return {
      text: `I did not book the table: ${booked?.result.message ?? "it did not run"}`,
      toolCalls: [tasks(ctx, "completed", "completed", "completed")],
    };
  },
  () => ({ text: "All three tasks are done." }),
];

const WAITLIST: Step[] = [
  (ctx) => ({
    text: "Friday evening is fully booked, so I've put you on the waitlist.",
    toolCalls: [
      ctx.call(INBOX_TOOL_NAME, {
        tag: "waitlist_friday",
        request: "A table on Friday evening for this guest, if one frees up.",
        blocking: false,
      }),
    ],
  }),
  () => ({
    text: "The request waits in the inbox until the restaurant answers; the answer will arrive in this conversation.",
  }),
];

function sceneFor(text: string): Step[] {
  if (/\b(waitlist|waiting list)/i.test(text)) return WAITLIST;
  if (/\b(book|reserv|table)/i.test(text)) return BOOKING;
  if (/\b(menu|food|eat|dish)/i.test(text)) return MENU_SCENE;
  return GREETING;
}

function isUserText(m: Message): boolean {
  return m.sender === "user" && !m.tool_results?.length && !m.is_compaction_request;
}

/** One scripted model turn for `request` (use as ScriptedModel's `fallback`). */
export function offlineTurn(request: PromptRequest): ScriptedTurn {
  const { messages } = request;
  const last = messages.at(-1);
  if (last?.is_compaction_request) return { text: "The user is trying the Glove Bistro demo." };
  let start = messages.length - 1;
  while (start >= 0 && !isUserText(messages[start]!)) start--;
  const userText = start >= 0 ? messages[start]!.text : "";
  const step = messages.slice(start + 1).filter((m) => m.sender === "agent").length;
  const scene = sceneFor(userText);
  let n = 0;
  const ctx: SceneContext = {
    userText,
    results: last?.tool_results ?? [],
    call: (name, input) => ({ name, input, id: `offline_${messages.length}_${n++}` }),
  };
  const build = scene[step];
  if (!build)
    return {
      text: "That's all the offline walkthrough does. Set ANTHROPIC_API_KEY or OPENAI_API_KEY to talk to a real model.",
    };
  return build(ctx);
}
