import { describe, expect, it } from "vitest";
import {
  Context,
  Displaymanager,
  Glove,
  MemoryStore,
  TASK_TOOL_NAME,
  createTaskTool,
  type Message,
  type StoreAdapter,
  type Task,
  type TaskToolInput,
  type TokenConsumptionCounter,
  type ToolResult,
} from "glove-core";
import { ScriptedModel, type ScriptedStep } from "glove-core/testing";
import { makeGlove } from "../support/make-glove.js";

/** Only the required StoreAdapter members: no tasks, no inbox, no permissions. */
class BareStore implements StoreAdapter {
  readonly messages: Message[] = [];
  private tokens = 0;
  private turns = 0;
  constructor(readonly identifier: string) {}
  async getMessages(): Promise<Message[]> {
    return structuredClone(this.messages);
  }
  async appendMessages(msgs: Message[]): Promise<void> {
    this.messages.push(...structuredClone(msgs));
  }
  async getTokenCount(): Promise<number> {
    return this.tokens;
  }
  async addTokens(args: TokenConsumptionCounter): Promise<void> {
    this.tokens += args.tokens_in + args.tokens_out;
  }
  async getTurnCount(): Promise<number> {
    return this.turns;
  }
  async incrementTurn(): Promise<void> {
    this.turns += 1;
  }
  async resetCounters(): Promise<void> {
    this.tokens = 0;
    this.turns = 0;
  }
}

/** Task methods of the base interface only: no replaceTasks, so the tool must update by position. */
class TaskStoreWithoutReplace extends BareStore {
  readonly tasks: Task[] = [];
  readonly log: string[] = [];
  async getTasks(): Promise<Task[]> {
    return structuredClone(this.tasks);
  }
  async addTasks(tasks: Task[]): Promise<void> {
    this.log.push(`add:${tasks.map((t) => t.content).join(",")}`);
    this.tasks.push(...structuredClone(tasks));
  }
  async updateTask(taskId: string, updates: Partial<Task>): Promise<void> {
    const task = this.tasks.find((t) => t.id === taskId);
    if (!task) throw new Error(`no task ${taskId}`);
    this.log.push(`update:${taskId}`);
    Object.assign(task, structuredClone(updates), { id: taskId });
  }
}

const three: TaskToolInput["todos"] = [
  { content: "Read the spec", activeForm: "Reading the spec", status: "completed" },
  { content: "Write the tests", activeForm: "Writing the tests", status: "in_progress" },
  { content: "Ship it", activeForm: "Shipping it", status: "pending" },
];
const two: TaskToolInput["todos"] = [
  { content: "Write the tests", activeForm: "Writing the tests", status: "completed" },
  { content: "Ship it", activeForm: "Shipping it", status: "in_progress" },
];

function buildGlove(store: StoreAdapter, steps: ScriptedStep[]): { glove: Glove; model: ScriptedModel } {
  return makeGlove(steps, { store, systemPrompt: "You track tasks." });
}

function updateTasks(todos: unknown): ScriptedStep {
  return { toolCalls: [{ name: TASK_TOOL_NAME, input: { todos } }] };
}

async function taskResults(store: StoreAdapter): Promise<ToolResult[]> {
  return (await store.getMessages()).flatMap((m) => m.tool_results ?? []).filter((r) => r.tool_name === TASK_TOOL_NAME);
}

const strip = (tasks: Task[]) => tasks.map(({ content, activeForm, status }) => ({ content, activeForm, status }));

describe("glove_update_tasks registration", () => {
  it("is registered automatically with a MemoryStore", async () => {
    const { glove, model } = buildGlove(new MemoryStore("s"), [{ text: "ok" }]);
    await glove.processRequest("hi");
    const offered = model.requests[0]?.tools?.find((t) => t.name === TASK_TOOL_NAME);
    expect(TASK_TOOL_NAME).toBe("glove_update_tasks");
    expect(offered).toBeDefined();
    expect(offered?.description).toMatch(/complete list/i);
  });

  it("is NOT registered with a store that lacks the task methods; a call to it is an unknown-tool error", async () => {
    const store = new BareStore("bare");
    const { glove, model } = buildGlove(store, [updateTasks(three), { text: "ok" }]);
    await glove.processRequest("hi");
    expect((model.requests[0]?.tools ?? []).map((t) => t.name)).not.toContain(TASK_TOOL_NAME);
    const [result] = await taskResults(store);
    expect(result?.result.status).toBe("error");
    expect(result?.result.message).toMatch(/Unknown tool/);
  });

  it("follows the store across rebuild: removed for a store without tasks, back for one with them", async () => {
    const model = new ScriptedModel([{ text: "1" }, { text: "2" }, { text: "3" }]);
    const glove = new Glove({
      model,
      displayManager: new Displaymanager(),
      systemPrompt: "p",
      compaction_config: { compaction_instructions: "s" },
    }).build(new MemoryStore("a"));
    const names = (i: number) => (model.requests[i]?.tools ?? []).map((t) => t.name);
    await glove.processRequest("one");
    glove.rebuild(new BareStore("bare"));
    await glove.processRequest("two");
    glove.rebuild(new MemoryStore("b"));
    await glove.processRequest("three");
    expect(names(0)).toContain(TASK_TOOL_NAME);
    expect(names(1)).not.toContain(TASK_TOOL_NAME);
    expect(names(2).filter((n) => n === TASK_TOOL_NAME)).toHaveLength(1);
  });
});

describe("glove_update_tasks through the agent loop", () => {
  it("replaces the whole list on a store with replaceTasks (3 tasks, then 2 → exactly those 2)", async () => {
    const store = new MemoryStore("s");
    const { glove } = buildGlove(store, [
      updateTasks(three),
      { text: "planned" },
      updateTasks(two),
      { text: "updated" },
    ]);
    await glove.processRequest("plan");
    expect(strip(await store.getTasks())).toEqual(three);
    const firstIds = (await store.getTasks()).map((t) => t.id);
    expect(new Set(firstIds).size).toBe(3);

    await glove.processRequest("progress");
    const tasks = await store.getTasks();
    expect(strip(tasks)).toEqual(two);
    // Positions keep their ids.
    expect(tasks.map((t) => t.id)).toEqual(firstIds.slice(0, 2));

    const results = await taskResults(store);
    expect(results.map((r) => r.result.status)).toEqual(["success", "success"]);
    expect(results[1]?.result.data).toMatch(/2 tasks/);
    expect((results[1]?.result.renderData as { tasks: Task[] }).tasks).toEqual(tasks);
  });

  it("updates by position on a store without replaceTasks: existing ids kept, extras added, surplus completed", async () => {
    const store = new TaskStoreWithoutReplace("legacy");
    const { glove } = buildGlove(store, [
      updateTasks(three),
      { text: "planned" },
      updateTasks(two),
      { text: "updated" },
    ]);
    await glove.processRequest("plan");
    expect(strip(store.tasks)).toEqual(three);
    const ids = store.tasks.map((t) => t.id);
    expect(store.log).toEqual(["add:Read the spec,Write the tests,Ship it"]);

    store.log.length = 0;
    await glove.processRequest("progress");
    expect(store.tasks.map((t) => t.id)).toEqual(ids);
    expect(strip(store.tasks.slice(0, 2))).toEqual(two);
    // The base interface cannot delete, so the surplus task is closed rather than left pending.
    expect(store.tasks[2]).toMatchObject({ id: ids[2], status: "completed" });
    expect(store.log).toEqual([`update:${ids[0]}`, `update:${ids[1]}`, `update:${ids[2]}`]);

    const [, second] = await taskResults(store);
    expect(second?.result.status).toBe("success");
  });

  it("adds tasks past the existing ones on a store without replaceTasks", async () => {
    const store = new TaskStoreWithoutReplace("legacy");
    const { glove } = buildGlove(store, [updateTasks(two), { text: "a" }, updateTasks(three), { text: "b" }]);
    await glove.processRequest("plan");
    const ids = store.tasks.map((t) => t.id);
    await glove.processRequest("more");
    expect(strip(store.tasks)).toEqual(three);
    expect(store.tasks.slice(0, 2).map((t) => t.id)).toEqual(ids);
    expect(store.log.at(-1)).toBe("add:Ship it");
  });

  it("rejects invalid todos with an error result carrying the validation issues, leaving tasks untouched", async () => {
    const store = new MemoryStore("s");
    const { glove } = buildGlove(store, [
      updateTasks(three),
      { text: "ok" },
      updateTasks([{ content: "No active form", status: "started" }]),
      { text: "oops" },
    ]);
    await glove.processRequest("plan");
    await glove.processRequest("break it");
    const [, bad] = await taskResults(store);
    expect(bad?.result.status).toBe("error");
    expect(bad?.result.message).toMatch(/Invalid input for "glove_update_tasks"/);
    const issues = (bad?.result.data as { issues: Array<{ path: string; message: string }> }).issues;
    expect(issues.map((i) => i.path).sort()).toEqual(["todos.0.activeForm", "todos.0.status"]);
    expect(strip(await store.getTasks())).toEqual(three);
  });

  it("rejects a call without todos", async () => {
    const store = new MemoryStore("s");
    const { glove } = buildGlove(store, [{ toolCalls: [{ name: TASK_TOOL_NAME, input: {} }] }, { text: "oops" }]);
    await glove.processRequest("go");
    const [bad] = await taskResults(store);
    expect(bad?.result.status).toBe("error");
    expect((bad?.result.data as { issues: Array<{ path: string }> }).issues[0]?.path).toBe("todos");
    expect(await store.getTasks()).toEqual([]);
  });
});

describe("createTaskTool(context)", () => {
  it("works standalone against a Context", async () => {
    const store = new MemoryStore("standalone");
    const taskTool = createTaskTool(new Context(store));
    expect(taskTool.name).toBe(TASK_TOOL_NAME);
    const result = await taskTool.run({ todos: three });
    expect(result).toMatchObject({ status: "success" });
    expect((result as { data: string }).data).toBe(
      "Task list updated: 3 tasks (1 completed, 1 in progress, 1 pending).",
    );
    expect(strip(await store.getTasks())).toEqual(three);

    await taskTool.run({ todos: [] });
    expect(await store.getTasks()).toEqual([]);
  });

  it("validates its input with its schema", () => {
    const taskTool = createTaskTool(new Context(new MemoryStore("s")));
    expect(taskTool.input_schema?.safeParse({ todos: three }).success).toBe(true);
    expect(
      taskTool.input_schema?.safeParse({ todos: [{ content: "x", activeForm: "x", status: "done" }] }).success,
    ).toBe(false);
    expect(
      taskTool.input_schema?.safeParse({ todos: [{ content: "", activeForm: "x", status: "pending" }] }).success,
    ).toBe(false);
  });

  it("fails clearly when the context's store has no task methods", async () => {
    const taskTool = createTaskTool(new Context(new BareStore("bare")));
    await expect(taskTool.run({ todos: three })).rejects.toThrow(/task support/);
  });
});
