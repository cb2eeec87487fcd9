import * as z from "zod";
import type { GlovePlugin, StoreAdapter, Task, Tool } from "../types/index.js";
import type { Context } from "../runtime/context.js";

/** Name of the built-in tool the model uses to keep its task list. */
export const TASK_TOOL_NAME = "glove_update_tasks";

const taskToolSchema = z.object({
  todos: z
    .array(
      z.object({
        content: z.string().min(1).describe('Imperative form, e.g. "Fix the login bug".'),
        activeForm: z.string().min(1).describe('Present-continuous form, e.g. "Fixing the login bug".'),
        status: z.enum(["pending", "in_progress", "completed"]),
      }),
    )
    .describe("The complete task list. Each call replaces the whole list."),
});

/** What the model sends to the task tool: the complete task list. */
export type TaskToolInput = z.infer<typeof taskToolSchema>;

let taskCounter = 0;
function newTaskId(): string {
  taskCounter += 1;
  return `task_${Date.now().toString(36)}_${taskCounter.toString(36)}`;
}

/** True when the store has every task method the task tool needs. */
export function storeSupportsTasks(store: StoreAdapter): boolean {
  return Boolean(store.getTasks && store.addTasks && store.updateTask);
}

/**
 * The built-in `glove_update_tasks` tool. Every call sends the full list, so
 * additions, status changes and removals happen in one call.
 */
export function createTaskTool(context: Context): Tool<TaskToolInput> {
  return {
    name: TASK_TOOL_NAME,
    description:
      "Keep a visible task list for multi-step work. Send the COMPLETE list every time (it replaces the previous one). " +
      "Mark exactly one task in_progress while you work on it and completed as soon as it is done.",
    input_schema: taskToolSchema,
    async run(input) {
      const tasks = await replaceTaskList(context, input.todos);
      const counts = { pending: 0, in_progress: 0, completed: 0 };
      for (const t of tasks) counts[t.status] += 1;
      return {
        status: "success",
        data: `Task list updated: ${tasks.length} tasks (${counts.completed} completed, ${counts.in_progress} in progress, ${counts.pending} pending).`,
        renderData: { tasks },
      };
    },
  };
}

/**
 * Stores with `replaceTasks` swap the list atomically. Otherwise tasks are
 * matched by position: existing ones are updated, extra ones added, and
 * surplus old ones marked completed (the base store interface cannot delete).
 */
async function replaceTaskList(context: Context, todos: TaskToolInput["todos"]): Promise<Task[]> {
  const store = context.store;
  const existing = await context.getTasks();
  const next: Task[] = todos.map((t, i) => ({ ...t, id: existing[i]?.id ?? newTaskId() }));
  if (store.replaceTasks) {
    await store.replaceTasks(next);
    return next;
  }
  for (let i = 0; i < next.length; i++) {
    const task = next[i]!;
    if (existing[i]) await context.updateTask(task.id, task);
  }
  const added = next.slice(existing.length);
  if (added.length) await context.addTasks(added);
  for (const stale of existing.slice(next.length)) {
    await context.updateTask(stale.id, { status: "completed" });
  }
  return context.getTasks();
}

/** Owns `glove_update_tasks` for a store with task methods. */
export class TasksPlugin implements GlovePlugin {
  readonly name = "glove:tasks";
  private readonly tool: Tool<unknown>;

  constructor(context: Context) {
    this.tool = createTaskTool(context) as Tool<unknown>;
  }

  tools(): readonly Tool<unknown>[] {
    return [this.tool];
  }
}
