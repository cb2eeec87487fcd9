import { TASK_TOOL_NAME } from "glove-core";
import type { PromptRequest, ToolResult } from "glove-core";
import type { ScriptedTurn } from "glove-core/testing";
import { UNITS, type Unit } from "./tools/convert-units.js";

/** What a scripted turn can look at: the user's words and the results of the last tool calls. */
export interface SceneContext {
  userText: string;
  results: ToolResult[];
}

export interface Scene {
  title: string;
  suggestion: string;
  turns: Array<(ctx: SceneContext) => ScriptedTurn>;
}

type Todo = { content: string; activeForm: string; status: "pending" | "in_progress" | "completed" };

function tasks(...todos: Array<[string, string, Todo["status"]]>): { name: string; input: { todos: Todo[] } } {
  return {
    name: TASK_TOOL_NAME,
    input: { todos: todos.map(([content, activeForm, status]) => ({ content, activeForm, status })) },
  };
}

function resultOf(ctx: SceneContext, tool: string): ToolResult | undefined {
  return ctx.results.find((r) => r.tool_name === tool);
}

function outcome(result: ToolResult | undefined): string {
  if (!result) return "(no result)";
  return result.result.status === "success" ? String(result.result.data) : (result.result.message ?? "it failed");
}

const UNIT_WORDS: Record<string, Unit> = {
  kilometers: "km",
  kilometres: "km",
  miles: "mi",
  mile: "mi",
  meters: "m",
  metres: "m",
  feet: "ft",
  kilograms: "kg",
  kilos: "kg",
  pounds: "lb",
  lbs: "lb",
  grams: "g",
  ounces: "oz",
  liters: "l",
  litres: "l",
  gallons: "gal",
  celsius: "C",
  fahrenheit: "F",
  kelvin: "K",
};
const PAIRS: Partial<Record<Unit, Unit>> = {
  km: "mi",
  mi: "km",
  kg: "lb",
  lb: "kg",
  C: "F",
  F: "C",
  l: "gal",
  gal: "l",
  m: "ft",
  ft: "m",
};

function unit(word: string | undefined): Unit | undefined {
  if (!word) return undefined;
  const exact = UNITS.find((u) => u === word) ?? UNITS.find((u) => u.toLowerCase() === word.toLowerCase());
  return exact ?? UNIT_WORDS[word.toLowerCase()];
}

/** "42 km to miles", "70kg in lb", "21 C": the model's reading of a conversion request. */
export function parseConversion(text: string): { value: number; from: Unit; to: Unit } {
  const match = /(-?\d+(?:\.\d+)?)\s*°?([a-z]+)\b(?:.*?\b(?:to|in|into)\s+°?([a-z]+))?/i.exec(text);
  const from = unit(match?.[2]);
  const to = unit(match?.[3]) ?? (from ? PAIRS[from] : undefined);
  if (!match || !from || !to) return { value: 42, from: "km", to: "mi" };
  return { value: Number(match[1]), from, to };
}

function noteText(userText: string): string {
  const text = userText.replace(/^\s*(please\s+)?(add\s+)?(a\s+)?note\s*[:,-]?\s*/i, "").trim();
  return text || "buy new running shoes";
}

/** The note the user wants deleted: one sharing a word with the request, else the newest. */
function pickNote(ctx: SceneContext): number | undefined {
  const listed = resultOf(ctx, "list_notes")?.result.renderData as
    { notes?: Array<{ id: number; text: string }> } | undefined;
  const notes = listed?.notes ?? [];
  const words = ctx.userText.toLowerCase().match(/[a-z]{4,}/g) ?? [];
  const hit = notes.find((n) => words.some((w) => n.text.toLowerCase().includes(w.replace(/s$/, ""))));
  return (hit ?? notes.at(-1))?.id;
}

/** Results that record nothing the user did, left out of the compaction summary. */
const READ_ONLY = new Set([TASK_TOOL_NAME, "list_notes"]);

export const SCENES: Scene[] = [
  {
    title: "Streaming text",
    suggestion: "Hi! What can you do?",
    turns: [
      () => ({
        text: "Hi! I'm a Glove agent running in your terminal. I can keep notes in a local JSON file, convert units (km/mi, kg/lb, C/F...), and track multi-step work in a task list. Deleting notes needs your permission.",
      }),
    ],
  },
  {
    title: "A task list, the unit conversion tool and a note",
    suggestion: "Convert my 42 km running route to miles and save it as a note.",
    turns: [
      () => ({
        text: "Two steps, so I'll keep a task list.",
        toolCalls: [
          tasks(
            ["Convert the amount", "Converting the amount", "in_progress"],
            ["Save the result as a note", "Saving the result as a note", "pending"],
          ),
        ],
      }),
      (ctx) => ({ toolCalls: [{ name: "convert_units", input: parseConversion(ctx.userText) }] }),
      (ctx) => ({
        toolCalls: [
          tasks(
            ["Convert the amount", "Converting the amount", "completed"],
            ["Save the result as a note", "Saving the result as a note", "in_progress"],
          ),
          { name: "add_note", input: { text: `Conversion: ${outcome(resultOf(ctx, "convert_units"))}` } },
        ],
      }),
      (ctx) => ({
        toolCalls: [
          tasks(
            ["Convert the amount", "Converting the amount", "completed"],
            ["Save the result as a note", "Saving the result as a note", "completed"],
          ),
        ],
        text: `${outcome(resultOf(ctx, "add_note"))}.`,
      }),
      () => ({ text: "All done: both tasks are complete." }),
    ],
  },
  {
    title: "Another note",
    suggestion: "Add a note: buy new running shoes",
    turns: [
      (ctx) => ({ toolCalls: [{ name: "add_note", input: { text: noteText(ctx.userText) } }] }),
      (ctx) => ({ text: `${outcome(resultOf(ctx, "add_note"))}. You have it in your notes now.` }),
    ],
  },
  {
    title: "A tool that needs permission (then compaction)",
    suggestion: "Show my notes, then delete the shoes one.",
    turns: [
      () => ({ text: "Let me look at your notes first.", toolCalls: [{ name: "list_notes", input: {} }] }),
      (ctx) => {
        const id = pickNote(ctx);
        if (id === undefined) return { text: "You have no notes, so there is nothing to delete." };
        return {
          text: `Deleting note #${id}; the runtime will ask you first.`,
          toolCalls: [{ name: "delete_note", input: { id } }],
        };
      },
      (ctx) => {
        const result = resultOf(ctx, "delete_note");
        if (result?.result.status === "success") return { text: `${outcome(result)}.` };
        return { text: `I left the note alone: ${outcome(result)}` };
      },
    ],
  },
  {
    title: "A confirmation pushed on the display stack",
    suggestion: "Now clear all my notes.",
    turns: [
      () => ({ toolCalls: [{ name: "clear_notes", input: {} }] }),
      (ctx) => ({ text: `${outcome(resultOf(ctx, "clear_notes"))} That's the end of the walkthrough!` }),
    ],
  },
];

/**
 * Plays the scenes as the "model": each user message starts the next scene,
 * each tool result moves to the scene's next turn, and a compaction request
 * gets a summary built from what the tools really returned.
 */
export class WalkthroughDirector {
  private scene = -1;
  private turn = 0;
  private userText = "";
  private readonly done: string[] = [];

  constructor(private readonly scenes: Scene[] = SCENES) {}

  /** Continues a resumed session: the first `completed` scenes were played in an earlier run. */
  resumeAfter(completed: number): void {
    this.scene = completed - 1;
    this.turn = 0;
  }

  readonly step = (request: PromptRequest): ScriptedTurn => {
    const last = request.messages.at(-1);
    if (last?.is_compaction_request) return { text: this.summary() };
    const results = last?.tool_results ?? [];
    if (last?.sender === "user" && !last.tool_results?.length) {
      this.scene += 1;
      this.turn = 0;
      this.userText = last.text;
    }
    for (const r of results)
      if (r.result.status === "success" && !READ_ONLY.has(r.tool_name)) this.done.push(String(r.result.data));
    const build = this.scenes[this.scene]?.turns[this.turn++];
    if (!build)
      return { text: "That's all I can do offline. Set ANTHROPIC_API_KEY or OPENAI_API_KEY to talk to a real model." };
    return build({ userText: this.userText, results });
  };

  private summary(): string {
    const facts = this.done.map((d) => `- ${d.split("\n").join("; ")}`).join("\n");
    return `The user is trying the terminal agent. Done so far:\n${facts || "- nothing yet"}`;
  }
}
