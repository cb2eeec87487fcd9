/**
 * How the bistro's tools look in the browser. The tools run on the server (src/tools.ts); here
 * they are views (`defineToolView`) on the schemas both sides share (src/shared.ts), so their props,
 * answers and renderData are typed and no server code comes along: `render` for their live slots,
 * `renderResult` for finished calls from history (from the result's `renderData`). `choice` and
 * `notice` are general renderers any server tool may push by name.
 */
import { useId, useState, type ReactNode } from "react";
import {
  defineToolView,
  type SlotRenderer,
  type SlotRenderProps,
  type ToolResultRenderProps,
  type ToolView,
} from "glove-react";
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
} from "../../src/shared.js";

/** The attributes every slot card carries: which call pushed it and where it stands. */
function slotAttributes<P, R>(props: SlotRenderProps<P, R>): Record<string, string> {
  return {
    "data-slot": props.slot.renderer,
    "data-slot-for": props.slot.toolCallId ?? "",
    "data-slot-status": props.status,
  };
}

function Menu({ card }: { card: MenuCard }): ReactNode {
  return (
    <>
      <h3>{card.title}</h3>
      <ul className="dishes">
        {card.dishes.map((dish) => (
          <li key={dish.name}>
            <span>{dish.name}</span>
            <span className="price">€{dish.price}</span>
          </li>
        ))}
      </ul>
      {card.note ? <p className="note">{card.note}</p> : null}
    </>
  );
}

function MenuSlot(props: SlotRenderProps<MenuCard>): ReactNode {
  return (
    <section className="card menu" aria-label="Menu" {...slotAttributes(props)}>
      <Menu card={props.props} />
    </section>
  );
}

function MenuResult({ data }: ToolResultRenderProps<MenuCard>): ReactNode {
  return (
    <section className="card menu from-history" aria-label="Menu" data-result="show_menu">
      <Menu card={data} />
    </section>
  );
}

const ISSUE_PATHS = ["name", "guests", "time"] as const;

/** A pushAndWait form: its answer is checked by the server against the tool's resolveSchema. */
function ReservationForm(props: SlotRenderProps<ReservationQuestion, Reservation>): ReactNode {
  const { props: question, resolve, reject, status, issues } = props;
  const id = useId();
  const [name, setName] = useState("");
  const [guests, setGuests] = useState(String(question.guests ?? 2));
  const [time, setTime] = useState("19:30");
  const pending = status === "pending";
  const issueOf = (path: string) =>
    issues
      ?.filter((issue) => issue.path === path)
      .map((issue) => issue.message)
      .join("; ");
  const other = issues?.filter((issue) => !(ISSUE_PATHS as readonly string[]).includes(issue.path)) ?? [];
  return (
    <form
      className="card form"
      aria-label="Reservation"
      noValidate
      {...slotAttributes(props)}
      onSubmit={(event) => {
        event.preventDefault();
        resolve({ name, guests: Number(guests), time });
      }}
    >
      <h3>{question.question}</h3>
      <div className="fields">
        <label htmlFor={`${id}-name`}>Name</label>
        <input
          id={`${id}-name`}
          name="name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          disabled={!pending}
          aria-invalid={Boolean(issueOf("name"))}
        />
        {issueOf("name") ? (
          <span className="issue" data-issue="name">
            {issueOf("name")}
          </span>
        ) : (
          <span />
        )}
        <label htmlFor={`${id}-guests`}>Guests</label>
        <input
          id={`${id}-guests`}
          name="guests"
          type="number"
          value={guests}
          onChange={(e) => setGuests(e.target.value)}
          disabled={!pending}
          aria-invalid={Boolean(issueOf("guests"))}
        />
        {issueOf("guests") ? (
          <span className="issue" data-issue="guests">
            {issueOf("guests")}
          </span>
        ) : (
          <span />
        )}
        <label htmlFor={`${id}-time`}>Time</label>
        <input
          id={`${id}-time`}
          name="time"
          value={time}
          onChange={(e) => setTime(e.target.value)}
          disabled={!pending}
          aria-invalid={Boolean(issueOf("time"))}
        />
        {issueOf("time") ? (
          <span className="issue" data-issue="time">
            {issueOf("time")}
          </span>
        ) : (
          <span />
        )}
      </div>
      {issues?.length ? (
        <p role="alert" className="issues">
          The restaurant could not take that: {issues.map((issue) => issue.message).join("; ")}.
          {other.length ? "" : " Correct it and send again."}
        </p>
      ) : null}
      {pending ? (
        <div className="actions">
          <button type="submit" className="primary">
            Send details
          </button>
          <button type="button" onClick={() => reject("The guest cancelled the form.")}>
            Cancel
          </button>
        </div>
      ) : null}
    </form>
  );
}

function ReservationResult({ data: answer, status }: ToolResultRenderProps<Reservation>): ReactNode {
  if (status !== "success" || !answer) return null;
  return (
    <p className="result" data-result="reservation_form">
      Details: <strong>{answer.name}</strong>, {answer.guests} {answer.guests === 1 ? "guest" : "guests"} at{" "}
      {answer.time}
    </p>
  );
}

function BookingResult({ data: booking, status }: ToolResultRenderProps<Booking>): ReactNode {
  if (status !== "success" || !booking) return null;
  return (
    <section className="card booked" data-result="book_table">
      <h3>Table booked</h3>
      <p>
        {booking.name}, {booking.guests} {booking.guests === 1 ? "guest" : "guests"} at {booking.time}. Confirmation{" "}
        <strong>{booking.code}</strong>.
      </p>
    </section>
  );
}

/** A question with buttons (pushAndWait); `stay` keeps it on screen with the answer. */
function Choice(props: SlotRenderProps): ReactNode {
  const input = props.props as ChoiceInput;
  const [chosen, setChosen] = useState<string | null>(null);
  const pending = props.status === "pending";
  return (
    <section className="card choice" role="group" aria-label={input.question} {...slotAttributes(props)}>
      <h3>{input.question}</h3>
      <div className="actions">
        {input.options.map((option) => (
          <button
            key={option}
            type="button"
            disabled={!pending}
            aria-pressed={chosen === option}
            onClick={() => {
              setChosen(option);
              props.resolve(option);
            }}
          >
            {option}
          </button>
        ))}
      </div>
      {props.status === "resolved" ? <p className="note">Answered{chosen ? `: ${chosen}` : ""}.</p> : null}
      {props.status === "closed" || props.status === "rejected" ? <p className="note">No longer waiting.</p> : null}
    </section>
  );
}

/** A card (pushAndForget). */
function Notice(props: SlotRenderProps): ReactNode {
  const input = props.props as NoticeInput;
  return (
    <section className="card notice" aria-label={input.title} {...slotAttributes(props)}>
      <h3>{input.title}</h3>
      {input.text ? <p>{input.text}</p> : null}
    </section>
  );
}

export const tools: ToolView[] = [
  defineToolView({ ...showMenuSchemas, render: MenuSlot, renderResult: MenuResult }),
  defineToolView({ ...reservationFormSchemas, render: ReservationForm, renderResult: ReservationResult }),
  defineToolView({ ...bookTableSchemas, renderResult: BookingResult }),
];

export const renderers: Record<string, SlotRenderer> = { choice: Choice, notice: Notice };

/** Tools whose calls the transcript does not list (they have their own panels). */
export const QUIET_TOOLS = new Set(["glove_update_tasks"]);
