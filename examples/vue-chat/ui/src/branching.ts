/**
 * Regenerate, edit and the branch picker: the actions come from `useGlove` through provide/inject,
 * so the message renderer `GloveRender` calls stays a plain function of its entry.
 */
import { defineComponent, h, inject, nextTick, ref, type InjectionKey, type PropType } from "vue";
import type { BranchActionResult, EntryBranch, UseGloveReturn } from "glove-vue";

export type BranchActions = Pick<UseGloveReturn, "regenerate" | "editMessage" | "switchBranch" | "busy">;
export const BRANCH_ACTIONS: InjectionKey<BranchActions> = Symbol("branch-actions");

function useActions(): BranchActions {
  const actions = inject(BRANCH_ACTIONS, null);
  if (!actions) throw new Error("provide(BRANCH_ACTIONS, glove) above the transcript.");
  return actions;
}

/** A refusal worth telling the user (another tab won, a question waits…); kept until the next action. */
function useRefusal() {
  const refusal = ref<string | null>(null);
  return { refusal, report: (result: BranchActionResult) => (refusal.value = result.ok ? null : result.message) };
}

/** "‹ 2/3 ›": which alternative is shown, and buttons to the others. */
export const BranchPicker = defineComponent({
  name: "BranchPicker",
  props: { branch: { type: Object as PropType<EntryBranch>, default: undefined } },
  setup(props) {
    const { switchBranch, busy } = useActions();
    const { refusal, report } = useRefusal();
    return () => {
      const branch = props.branch;
      if (!branch) return null;
      const go = (to: number) => void switchBranch(branch.siblings[to]!).then(report);
      return h("span", { class: "branches meta", "data-testid": "branch-picker" }, [
        h(
          "button",
          {
            type: "button",
            class: "link",
            "aria-label": "Previous version",
            disabled: busy.value || branch.index === 0,
            onClick: () => go(branch.index - 1),
          },
          "‹",
        ),
        h("span", { "data-testid": "branch-position" }, `${branch.index + 1}/${branch.count}`),
        h(
          "button",
          {
            type: "button",
            class: "link",
            "aria-label": "Next version",
            disabled: busy.value || branch.index === branch.count - 1,
            onClick: () => go(branch.index + 1),
          },
          "›",
        ),
        refusal.value ? h("span", { role: "alert" }, ` ${refusal.value}`) : null,
      ]);
    };
  },
});

/** Regenerate under the last answer. */
export const RegenerateButton = defineComponent({
  name: "RegenerateButton",
  setup() {
    const { regenerate, busy } = useActions();
    const { refusal, report } = useRefusal();
    return () =>
      h("span", { class: "meta" }, [
        " ",
        h(
          "button",
          { type: "button", class: "link", disabled: busy.value, onClick: () => void regenerate().then(report) },
          "Regenerate",
        ),
        refusal.value ? h("span", { role: "alert" }, ` ${refusal.value}`) : null,
      ]);
  },
});

/** A stored user message with an Edit button; editing shows a field whose Save resends from there. */
export const EditableText = defineComponent({
  name: "EditableText",
  props: { messageId: { type: String, required: true }, text: { type: String, required: true } },
  setup(props) {
    const { editMessage, busy } = useActions();
    const editing = ref(false);
    const field = ref<HTMLInputElement | null>(null);
    // The field's text lives in a ref: a re-render (another tab's event) must not reset what is typed.
    const draft = ref("");
    const { refusal, report } = useRefusal();
    const onSubmit = (event: Event) => {
      event.preventDefault();
      const edited = draft.value.trim();
      if (!edited) return;
      editing.value = false;
      void editMessage(props.messageId, edited).then(report);
    };
    const startEditing = () => {
      draft.value = props.text;
      editing.value = true;
      void nextTick(() => field.value?.focus());
    };
    return () =>
      editing.value
        ? h("form", { class: "edit", onSubmit }, [
            h("input", {
              ref: field,
              name: "edit",
              "aria-label": "Edit message",
              value: draft.value,
              onInput: (event: Event) => (draft.value = (event.target as HTMLInputElement).value),
            }),
            h("button", { type: "submit", class: "primary" }, "Save"),
            h("button", { type: "button", onClick: () => (editing.value = false) }, "Cancel"),
          ])
        : [
            props.text,
            " ",
            h("button", { type: "button", class: "link meta", disabled: busy.value, onClick: startEditing }, "Edit"),
            refusal.value ? h("span", { role: "alert", class: "meta" }, ` ${refusal.value}`) : null,
          ];
  },
});
