/**
 * Cases for the ids every store keeps as keys (docs/decisions/0011 and 0020): session ids, task
 * and inbox item ids and tool names with NUL, a lone surrogate or more than 1024 UTF-8 bytes are
 * refused with GLOVE_STORE_INVALID by every store (PostgreSQL could not keep them, and failed
 * with a raw driver error on long ones); the rest are kept exactly.
 */
import type { InboxItem, StoreAdapter, Task } from "../../types/index.js";
import { assertEqual, StoreConformanceError } from "./assertions.js";
import { hasCapability, type WithInbox, type WithPermissions, type WithTasks } from "./capabilities.js";
import { inboxItem, plainMessages, task } from "./fixtures.js";
import type { CaseContext } from "./parity-cases.js";
import { boundaryIds, IdGenerator, KEY_BYTES, type IdSample } from "./random-ids.js";
import { assertRefused } from "./store-checks.js";
import type { StoreConformanceCase } from "./types.js";

/** Generated ids per round, and of those, how many also become session ids (each opens a store). */
const IDS_PER_ROUND = 24;
const SESSION_IDS_PER_ROUND = 6;

function describeId(sample: IdSample): string {
  const shown =
    sample.id.length > 24
      ? `${JSON.stringify(sample.id.slice(0, 24))}… (${sample.bytes} bytes)`
      : JSON.stringify(sample.id);
  return sample.bad ? `${shown} holding ${sample.bad}` : shown;
}

/** Adds or replaces (in place) by id, as addTasks and addInboxItem do. */
function upsert<T extends { id: string }>(list: T[], entry: T): void {
  const at = list.findIndex((e) => e.id === entry.id);
  if (at === -1) list.push(entry);
  else list[at] = entry;
}

/** The keys of one store: tasks, inbox items and permissions under generated ids. */
async function checkKeys(store: StoreAdapter, samples: IdSample[], required: CaseContext["required"]): Promise<void> {
  const withTasks = hasCapability(store, "tasks", required);
  const withInbox = hasCapability(store, "inbox", required);
  const withPermissions = hasCapability(store, "permissions", required);
  const tasks: Task[] = [];
  const items: InboxItem[] = [];
  const granted: string[] = [];
  for (const sample of samples) {
    const keeps = sample.bad === undefined && sample.bytes <= KEY_BYTES;
    const what = describeId(sample);
    const attempt = async (call: () => Promise<unknown>, action: string) => {
      if (!keeps) return assertRefused(call, `${action} of id ${what}`);
      await Promise.resolve()
        .then(call)
        .catch((error: unknown) => {
          throw new StoreConformanceError(
            `${action} of id ${what} must be accepted, but was refused: ${error instanceof Error ? error.message : String(error)}`,
          );
        });
    };
    if (withTasks) {
      const s = store as WithTasks;
      await attempt(() => s.addTasks([task(sample.id)]), "addTasks");
      await attempt(() => s.updateTask(sample.id, { status: "completed" }), "updateTask");
      if (keeps) upsert(tasks, task(sample.id, "completed"));
    }
    if (withInbox) {
      const s = store as WithInbox;
      await attempt(() => s.addInboxItem(inboxItem(sample.id)), "addInboxItem");
      await attempt(() => s.updateInboxItem(sample.id, { status: "consumed" }), "updateInboxItem");
      if (keeps) upsert(items, inboxItem(sample.id, { status: "consumed" }));
    }
    if (withPermissions) {
      const s = store as WithPermissions;
      await attempt(() => s.setPermission(sample.id, "granted"), "setPermission");
      await attempt(() => s.getPermission(sample.id), "getPermission");
      if (keeps) granted.push(sample.id);
    }
  }
  if (withTasks)
    assertEqual(await (store as WithTasks).getTasks(), tasks, "getTasks() (every kept id exactly, none merged)");
  if (withInbox)
    assertEqual(
      await (store as WithInbox).getInboxItems(),
      items,
      "getInboxItems() (every kept id exactly, none merged)",
    );
  for (const name of granted)
    assertEqual(
      await (store as WithPermissions).getPermission(name),
      "granted",
      `getPermission(${describeId({ id: name, bytes: 0 })})`,
    );
}

export function idCases({ define, open, required, options }: CaseContext): StoreConformanceCase[] {
  const openChecked = (id: string) => Promise.resolve().then(() => open(id));

  return [
    define(
      "random ids (seeded): keys with NUL, a lone surrogate or over 1024 UTF-8 bytes are refused (GLOVE_STORE_INVALID); the rest are kept exactly",
      async (session) => {
        const seed = options.propertySeed ?? Math.floor(Math.random() * 2 ** 31);
        const generator = new IdGenerator(seed);
        try {
          for (let round = 0; round < (options.propertyRuns ?? 4); round++) {
            const samples = [
              ...(round === 0 ? boundaryIds() : []),
              ...Array.from({ length: IDS_PER_ROUND }, () => generator.id()),
            ];
            await checkKeys(await open(session(`keys-${round}`)), samples, required);
            // Session ids: the case's ASCII prefix counts towards the limit.
            for (const [i, sample] of samples.slice(0, SESSION_IDS_PER_ROUND).entries()) {
              const prefix = `${session(`sid-${round}-${i}`)}-`;
              const id = prefix + sample.id;
              if (sample.bad !== undefined || prefix.length + sample.bytes > KEY_BYTES) {
                await assertRefused(() => openChecked(id), `a store whose session id ends in ${describeId(sample)}`);
                continue;
              }
              const store = await open(id);
              assertEqual(store.identifier, id, `identifier of a store on session id ${describeId(sample)}`);
              await store.appendMessages(plainMessages("s", 1));
              assertEqual(
                (await (await open(id)).getMessages()).map((m) => m.text),
                ["s#0"],
                `messages of session id ${describeId(sample)} through a second store`,
              );
            }
          }
        } catch (error) {
          if (error instanceof StoreConformanceError) {
            throw new StoreConformanceError(
              `${error.message} (seed ${seed}; pass propertySeed: ${seed} to storeConformanceCases to repeat)`,
            );
          }
          throw error;
        }
      },
    ),
  ];
}
