/** The side panels and the composer, as on the React page (same classes, labels and test ids). */
import { h, type VNodeChild } from "vue";
import type { InboxItem, Task } from "glove-core";
import type { ConnectionState } from "glove-vue";

export const CONNECTION_LABEL: Record<ConnectionState, string> = {
  idle: "Ready",
  connecting: "Connecting…",
  open: "Live",
  reconnecting: "Reconnecting…",
  offline: "Offline, retrying…",
};

const TASK_MARK = { pending: "○", in_progress: "◐", completed: "●" } as const;

export function tasksPanel(tasks: Task[]): VNodeChild {
  return h("section", { class: "panel", "aria-label": "Tasks", "data-testid": "tasks" }, [
    h("h2", "Tasks"),
    tasks.length
      ? h(
          "ol",
          { class: "tasks" },
          tasks.map((task) =>
            h("li", { key: task.id, "data-task-status": task.status }, [
              h("span", { "aria-hidden": "true" }, TASK_MARK[task.status]),
              ` ${task.status === "in_progress" ? task.activeForm : task.content}`,
            ]),
          ),
        )
      : h("p", { class: "empty" }, "No tasks yet."),
  ]);
}

export function inboxPanel(items: InboxItem[]): VNodeChild {
  return h("section", { class: "panel", "aria-label": "Inbox", "data-testid": "inbox" }, [
    h("h2", "Inbox"),
    items.length
      ? h(
          "ul",
          { class: "inbox" },
          items.map((item) =>
            h("li", { key: item.id, "data-inbox-status": item.status }, [
              h("strong", item.tag),
              " ",
              h("span", { class: "meta" }, `· ${item.status}`),
              h("p", item.request),
              item.response ? h("p", { class: "note" }, item.response) : null,
            ]),
          ),
        )
      : h("p", { class: "empty" }, "Nothing waiting."),
  ]);
}

/** An uncontrolled form: typing never re-renders the page. */
export function composer(send: (text: string) => void, busy: boolean, abort: () => void): VNodeChild {
  const onSubmit = (event: Event) => {
    event.preventDefault();
    const field = (event.currentTarget as HTMLFormElement).elements.namedItem("message") as HTMLInputElement | null;
    const text = field?.value.trim();
    if (!field || !text) return;
    send(text);
    field.value = "";
  };
  return h("form", { class: "composer", "data-glove-role": "input", onSubmit }, [
    h("input", { name: "message", "aria-label": "Message", placeholder: "Ask Glove Bistro…", autocomplete: "off" }),
    h("button", { type: "submit", class: "primary" }, "Send"),
    busy ? h("button", { type: "button", class: "stop", onClick: abort }, "Stop") : null,
  ]);
}
