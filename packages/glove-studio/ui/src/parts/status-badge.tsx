/** A status word with its colour (running, waiting, error, idle; span and trace statuses too). */
export function StatusBadge({ status }: { status: string }) {
  return (
    <span className={`badge badge-${status}`} data-status={status}>
      {status === "waiting" ? "waiting for a person" : status}
    </span>
  );
}
