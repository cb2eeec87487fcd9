/**
 * Glove's questions as AG-UI interrupts: a permission prompt is a tool approval (`reason:
 * "tool_call"`, answered `{ approved }`), the reservation form an `input_required` interrupt whose
 * metadata names the renderer and its props. Answering resumes the run (a `resume` entry).
 */
import { useAgUiInterrupts, useAgUiSubmitInterruptResponses, type AgUiInterrupt } from "@assistant-ui/react-ag-ui";
import { useState, type FormEvent } from "react";

type Submit = ReturnType<typeof useAgUiSubmitInterruptResponses>;

function Approval({ interrupt, submit }: { interrupt: AgUiInterrupt; submit: Submit }) {
  const input = (interrupt.metadata?.input ?? {}) as { input?: unknown };
  const answer = (approved: boolean) =>
    void submit([{ interruptId: interrupt.id, status: "resolved", payload: { approved } }]);
  return (
    <div className="interrupt approval" role="dialog" aria-label="Permission">
      <p>{interrupt.message}</p>
      <pre>{JSON.stringify(input.input ?? {}, null, 1)}</pre>
      <button onClick={() => answer(true)}>Allow</button>
      <button onClick={() => answer(false)}>Deny</button>
    </div>
  );
}

function ReservationForm({ interrupt, submit }: { interrupt: AgUiInterrupt; submit: Submit }) {
  const props = (interrupt.metadata?.input ?? {}) as { question?: string; guests?: number };
  const [name, setName] = useState("");
  const [guests, setGuests] = useState(String(props.guests ?? 2));
  const [time, setTime] = useState("19:30");
  const send = (event: FormEvent) => {
    event.preventDefault();
    void submit([{ interruptId: interrupt.id, status: "resolved", payload: { name, guests: Number(guests), time } }]);
  };
  return (
    <form className="interrupt form" aria-label="Reservation" onSubmit={send}>
      <p>{props.question ?? interrupt.message}</p>
      <input aria-label="Name" value={name} onChange={(e) => setName(e.target.value)} />
      <input aria-label="Guests" type="number" min={1} value={guests} onChange={(e) => setGuests(e.target.value)} />
      <input aria-label="Time" value={time} onChange={(e) => setTime(e.target.value)} />
      <button type="submit">Reserve</button>
      <button type="button" onClick={() => void submit([{ interruptId: interrupt.id, status: "cancelled" }])}>
        Cancel
      </button>
    </form>
  );
}

export function Interrupts() {
  const interrupts = useAgUiInterrupts();
  const submit = useAgUiSubmitInterruptResponses();
  return (
    <>
      {interrupts.map((interrupt) =>
        interrupt.reason === "tool_call" ? (
          <Approval key={interrupt.id} interrupt={interrupt} submit={submit} />
        ) : interrupt.metadata?.renderer === "reservation_form" ? (
          <ReservationForm key={interrupt.id} interrupt={interrupt} submit={submit} />
        ) : (
          <p key={interrupt.id} className="interrupt">
            {interrupt.message}
          </p>
        ),
      )}
    </>
  );
}
