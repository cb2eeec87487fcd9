/**
 * How the bistro's tools look in the browser. The tools run on the server (src/tools.ts); here
 * they only draw: `render` for their live slots, `renderResult` for finished calls from history
 * (from the result's `renderData`). `choice` and `notice` are general renderers any server tool
 * may push by name.
 */
import { useId, useState, type ReactNode } from "react";
import type { SlotRenderer, SlotRenderProps, ToolConfig, ToolResultRenderProps } from "glove-react";
import type { Booking, ChoiceInput, MenuCard, NoticeInput, Reservation, ReservationQuestion } from "../../src/shared.js";

/** A tool as the browser knows it: the name and the views; `do` runs only on the server. */
function view(name: string, parts: Pick<ToolConfig, "render" | "renderResult">): ToolConfig {
  return {
    name,
    description: `${name} (runs on the server)`,
    do: () => Promise.reject(new Error(`${name} runs on the server`)),
    ...parts,
  };
}

/** The attributes every slot card carries: which call pushed it and where it stands. */
function slotAttributes(props: SlotRenderProps): Record<string, string> {
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

function MenuSlot(props: SlotRenderProps): ReactNode {
  return (
    <section className="card menu" aria-label="Menu" {...slotAttributes(props)}>
      <Menu card={props.props as MenuCard} />
    </section>
  );
}

function MenuResult({ data }: ToolResultRenderProps): ReactNode {
  return (
    <section className="card menu from-history" aria-label="Menu" data-result="show_menu">
      <Menu card={data as MenuCard} />
    </section>
  );
}

const ISSUE_PATHS = ["name", "guests", "time"] as const;

/** A pushAndWait form: its answer is checked by the server against the tool's resolveSchema. */
function ReservationForm(props: SlotRenderProps): ReactNode {
  const question = props.props as ReservationQuestion;
  const { resolve, reject, status, issues } = props as SlotRenderProps<ReservationQuestion, Reservation>;
  const id = useId();
  const [name, setName] = useState("");
  const [guests, setGuests] = useState(String(question.guests ?? 2));
  const [time, setTime] = useState("19:30");
  const pending = status === "pending";
  const issueOf = (path: string) => issues?.filter((issue) => issue.path === path).map((issue) => issue.message).join("; ");
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
        <input id={`${id}-name`} name="name" value={name} onChange={(e) => setName(e.target.value)} disabled={!pending} aria-invalid={Boolean(issueOf("name"))} />
        {issueOf("name") ? <span className="issue" data-issue="name">{issueOf("name")}</span> : <span />}
        <label htmlFor={`${id}-guests`}>Guests</label>
        <input id={`${id}-guests`} name="guests" type="number" value={guests} onChange={(e) => setGuests(e.target.value)} disabled={!pending} aria-invalid={Boolean(issueOf("guests"))} />
        {issueOf("guests") ? <span className="issue" data-issue="guests">{issueOf("guests")}</span> : <span />}
        <label htmlFor={`${id}-time`}>Time</label>
        <input id={`${id}-time`} name="time" value={time} onChange={(e) => setTime(e.target.value)} disabled={!pending} aria-invalid={Boolean(issueOf("time"))} />
        {issueOf("time") ? <span className="issue" data-issue="time">{issueOf("time")}</span> : <span />}
      </div>
      {issues?.length ? (
        <p role="alert" className="issues">
          The restaurant could not take that: {issues.map((issue) => issue.message).join("; ")}.{other.length ? "" : " Correct it and send again."}
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

function ReservationResult({ data, status }: ToolResultRenderProps): ReactNode {
  if (status !== "success" || !data) return null;
  const answer = data as Reservation;
  return (
    <p className="result" data-result="reservation_form">
      Details: <strong>{answer.name}</strong>, {answer.guests} {answer.guests === 1 ? "guest" : "guests"} at {answer.time}
    </p>
  );
}

function BookingResult({ data, status }: ToolResultRenderProps): ReactNode {
  if (status !== "success" || !data) return null;
  const booking = data as Booking;
  return (
    <section className="card booked" data-result="book_table">
      <h3>Table booked</h3>
      <p>
        {booking.name}, {booking.guests} {booking.guests === 1 ? "guest" : "guests"} at {booking.time}. Confirmation <strong>{booking.code}</strong>.
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

export const tools: ToolConfig[] = [
  view("show_menu", { render: MenuSlot, renderResult: MenuResult }),
  view("reservation_form", { render: ReservationForm, renderResult: ReservationResult }),
  view("book_table", { renderResult: BookingResult }),
];

export const renderers: Record<string, SlotRenderer> = { choice: Choice, notice: Notice };

/** Tools whose calls the transcript does not list (they have their own panels). */
export const QUIET_TOOLS = new Set(["glove_update_tasks"]);
