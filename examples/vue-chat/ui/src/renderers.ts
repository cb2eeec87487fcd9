/**
 * How the bistro's tools look in the Vue page: views (`defineToolView`) on the schemas the server's
 * tools are made from (the web demo's src/shared.ts, shared with its React page), so the props,
 * answers and renderData are typed and no server code comes along. `choice` and `notice` are
 * general renderers any server tool may push by name. The markup (classes, labels, data-*) is the
 * React page's, so one stylesheet and one browser test suite serve both.
 */
import { defineComponent, h, ref, useId, type VNodeChild } from "vue";
import {
  defineToolView,
  slotRenderProps,
  type SlotRenderer,
  type SlotRenderProps,
  type ToolResultRenderProps,
  type ToolView,
} from "glove-vue";
import {
  bookTableSchemas,
  reservationFormSchemas,
  showMenuSchemas,
  type Booking,
  type ChoiceInput,
  type MenuCard,
  type NoticeInput,
  type Reservation,
  type ReservationQuestion,
} from "../../../web-chat/src/shared.js";

/** The attributes every slot card carries: which call pushed it and where it stands. */
function slotAttributes(props: Pick<SlotRenderProps, "slot" | "status">): Record<string, string> {
  return {
    "data-slot": props.slot.renderer,
    "data-slot-for": props.slot.toolCallId ?? "",
    "data-slot-status": props.status,
  };
}

function menu(card: MenuCard): VNodeChild[] {
  return [
    h("h3", card.title),
    h(
      "ul",
      { class: "dishes" },
      card.dishes.map((dish) =>
        h("li", { key: dish.name }, [h("span", dish.name), h("span", { class: "price" }, `€${dish.price}`)]),
      ),
    ),
    card.note ? h("p", { class: "note" }, card.note) : null,
  ];
}

const menuSlot = (props: SlotRenderProps<MenuCard>) =>
  h("section", { class: "card menu", "aria-label": "Menu", ...slotAttributes(props) }, menu(props.props));

const menuResult = ({ data }: ToolResultRenderProps<MenuCard>) =>
  h("section", { class: "card menu from-history", "aria-label": "Menu", "data-result": "show_menu" }, menu(data));

const ISSUE_PATHS = ["name", "guests", "time"];

/** A pushAndWait form with its own field state: its answer is checked by the server against resolveSchema. */
const ReservationForm = defineComponent({
  name: "ReservationForm",
  props: slotRenderProps,
  setup(props) {
    const question = props.props as ReservationQuestion;
    const id = useId();
    const name = ref("");
    const guests = ref(String(question.guests ?? 2));
    const time = ref("19:30");
    const issueOf = (path: string) =>
      props.issues
        ?.filter((issue) => issue.path === path)
        .map((issue) => issue.message)
        .join("; ");
    const field = (key: "name" | "guests" | "time", label: string, model: typeof name, type = "text") => {
      const issue = issueOf(key);
      return [
        h("label", { for: `${id}-${key}` }, label),
        h("input", {
          id: `${id}-${key}`,
          name: key,
          type,
          value: model.value,
          onInput: (event: Event) => (model.value = (event.target as HTMLInputElement).value),
          disabled: props.status !== "pending",
          "aria-invalid": Boolean(issue),
        }),
        issue ? h("span", { class: "issue", "data-issue": key }, issue) : h("span"),
      ];
    };
    return () => {
      const issues = props.issues ?? [];
      const other = issues.filter((issue) => !ISSUE_PATHS.includes(issue.path));
      return h(
        "form",
        {
          class: "card form",
          "aria-label": "Reservation",
          novalidate: true,
          ...slotAttributes(props),
          onSubmit: (event: Event) => {
            event.preventDefault();
            props.resolve({ name: name.value, guests: Number(guests.value), time: time.value });
          },
        },
        [
          h("h3", (props.props as ReservationQuestion).question),
          h("div", { class: "fields" }, [
            ...field("name", "Name", name),
            ...field("guests", "Guests", guests, "number"),
            ...field("time", "Time", time),
          ]),
          issues.length
            ? h("p", { role: "alert", class: "issues" }, [
                `The restaurant could not take that: ${issues.map((issue) => issue.message).join("; ")}.`,
                other.length ? "" : " Correct it and send again.",
              ])
            : null,
          props.status === "pending"
            ? h("div", { class: "actions" }, [
                h("button", { type: "submit", class: "primary" }, "Send details"),
                h("button", { type: "button", onClick: () => props.reject("The guest cancelled the form.") }, "Cancel"),
              ])
            : null,
        ],
      );
    };
  },
});

const guestsText = (n: number) => `${n} ${n === 1 ? "guest" : "guests"}`;

const reservationResult = ({ data: answer, status }: ToolResultRenderProps<Reservation>) =>
  status !== "success" || !answer
    ? null
    : h("p", { class: "result", "data-result": "reservation_form" }, [
        "Details: ",
        h("strong", answer.name),
        `, ${guestsText(answer.guests)} at ${answer.time}`,
      ]);

const bookingResult = ({ data: booking, status }: ToolResultRenderProps<Booking>) =>
  status !== "success" || !booking
    ? null
    : h("section", { class: "card booked", "data-result": "book_table" }, [
        h("h3", "Table booked"),
        h("p", [
          `${booking.name}, ${guestsText(booking.guests)} at ${booking.time}. Confirmation `,
          h("strong", booking.code),
          ".",
        ]),
      ]);

/** A question with buttons (pushAndWait); `stay` keeps it on screen with the answer. */
const Choice = defineComponent({
  name: "ChoiceSlot",
  props: slotRenderProps,
  setup(props) {
    const chosen = ref<string | null>(null);
    return () => {
      const input = props.props as ChoiceInput;
      const pending = props.status === "pending";
      return h(
        "section",
        { class: "card choice", role: "group", "aria-label": input.question, ...slotAttributes(props) },
        [
          h("h3", input.question),
          h(
            "div",
            { class: "actions" },
            input.options.map((option) =>
              h(
                "button",
                {
                  key: option,
                  type: "button",
                  disabled: !pending,
                  "aria-pressed": chosen.value === option,
                  onClick: () => {
                    chosen.value = option;
                    props.resolve(option);
                  },
                },
                option,
              ),
            ),
          ),
          props.status === "resolved"
            ? h("p", { class: "note" }, `Answered${chosen.value ? `: ${chosen.value}` : ""}.`)
            : null,
          props.status === "closed" || props.status === "rejected"
            ? h("p", { class: "note" }, "No longer waiting.")
            : null,
        ],
      );
    };
  },
});

/** A card (pushAndForget). */
const notice = (props: SlotRenderProps) => {
  const input = props.props as NoticeInput;
  return h("section", { class: "card notice", "aria-label": input.title, ...slotAttributes(props) }, [
    h("h3", input.title),
    input.text ? h("p", input.text) : null,
  ]);
};

export const tools: ToolView[] = [
  defineToolView({ ...showMenuSchemas, render: menuSlot, renderResult: menuResult }),
  defineToolView({
    ...reservationFormSchemas,
    render: (props) => h(ReservationForm, { ...(props as SlotRenderProps) }),
    renderResult: reservationResult,
  }),
  defineToolView({ ...bookTableSchemas, renderResult: bookingResult }),
];

export const renderers: Record<string, SlotRenderer> = {
  choice: (props) => h(Choice, { ...props }),
  notice,
};

/** Tools whose calls the transcript does not list (they have their own panels). */
export const QUIET_TOOLS = new Set(["glove_update_tasks"]);
