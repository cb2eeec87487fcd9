/**
 * An SSE frame as one flat string. A template literal builds a tree of pieces (a "cons string",
 * several per frame) that V8 flattens only when the text is written; kept for replay, every
 * conversation would hold those trees. `join` writes the characters into one string at once.
 */
function frameText(id: number, type: string, json: string): string {
  return ["id: ", id, "\nevent: ", type, "\ndata: ", json, "\n\n"].join("");
}

/** One event as it goes over the wire, encoded once for every reader. */
interface Frame {
  id: number;
  /** The id before it in this log: `id - 1`, except after a jump a new owner continued from (scale mode). */
  prev: number;
  type: string;
  text: string;
}

export interface EventLogLimits {
  /** Events kept for replay after every connected reader has read them. */
  maxEvents: number;
  /** Characters kept for replay after every connected reader has read them. */
  maxChars: number;
  /**
   * Characters kept at most while a connected reader has not read them yet. Past this, the
   * slowest readers fall out of the window and start over from a snapshot. Default: 64 × maxChars.
   */
  maxHeldChars?: number;
}

/**
 * A connected reader's place in the log: frames after `position` are kept for it (within
 * `maxHeldChars`), so a reader that keeps up never loses events however large they are.
 * `undefined` while it has no place (before or while it takes a snapshot).
 */
export interface LogReader {
  position: number | undefined;
  /** Stops holding frames for this reader. */
  detach(): void;
}

/** Told of every event `append` numbers (its id, type and encoded data), e.g. to reserve ids or replicate it. */
export type EventListener = (id: number, type: string, json: string) => void;

export type ReadResult = { kind: "frames"; text: string; lastId: number } | { kind: "gap" } | { kind: "closed" };

/**
 * A conversation's events with strictly increasing ids, each encoded once as an SSE frame and kept
 * in a bounded window for replay. Readers are cursors into the window, not queues. Connected
 * readers hold the frames they have not read yet, so one large event (a 1 MB tool result) or a
 * burst cannot push a live reader out of the window; the hold is bounded too (`maxHeldChars`), and
 * a reader past it — one that stopped reading — is told (`gap`) and starts over from a snapshot.
 */
export class EventLog {
  #frames: Frame[] = [];
  #head = 0;
  #chars = 0;
  #lastId: number;
  /** Ids at or below this were handed out before this log existed (an earlier process). */
  #baseId: number;
  #waiters = new Set<() => void>();
  #readers = new Set<LogReader>();
  #closed = false;
  readonly #limits: Required<EventLogLimits>;
  readonly #onId: EventListener;

  constructor(baseId: number, limits: EventLogLimits, onId: EventListener = () => undefined) {
    this.#baseId = baseId;
    this.#lastId = baseId;
    this.#limits = { ...limits, maxHeldChars: limits.maxHeldChars ?? limits.maxChars * 64 };
    this.#onId = onId;
  }

  get baseId(): number {
    return this.#baseId;
  }

  get lastId(): number {
    return this.#lastId;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Appends an event and wakes the readers. Returns its id. */
  append(type: string, data: unknown): number {
    if (this.#closed) return this.#lastId;
    const prev = this.#lastId;
    const id = ++this.#lastId;
    const json = JSON.stringify(data ?? null);
    const text = frameText(id, type, json);
    this.#frames.push({ id, prev, type, text });
    this.#chars += text.length;
    this.#trim();
    this.#onId(id, type, json);
    this.#wake();
    return id;
  }

  /**
   * Appends an event numbered elsewhere (the scale mode's shared stream; `json` is its encoded
   * data). Older ids are ignored. A jump restarts the window (events trimmed away meanwhile, or ids a
   * dead owner handed out that never reached the stream), so readers behind it get a snapshot —
   * unless `prev` says the event follows this log's last one directly (a new owner continuing the
   * stream after a takeover): then readers go on across the jump.
   */
  appendNumbered(id: number, type: string, json: string, prev?: number): void {
    if (this.#closed || id <= this.#lastId) return;
    const continues = id === this.#lastId + 1 || prev === this.#lastId;
    if (!continues) {
      this.#frames = [];
      this.#head = 0;
      this.#chars = 0;
      this.#baseId = id - 1;
    }
    const text = frameText(id, type, json);
    this.#frames.push({ id, prev: continues ? this.#lastId : id - 1, type, text });
    this.#lastId = id;
    this.#chars += text.length;
    this.#trim();
    this.#wake();
  }

  /**
   * Places a log that holds no events yet at `id` (either way): a copy of another instance's stream
   * whose start was a guess learns where the owner's ids are. False (nothing changed) once it holds any.
   */
  restartAt(id: number): boolean {
    if (this.#closed || this.#frames.length > this.#head) return false;
    this.#frames = [];
    this.#head = 0;
    this.#chars = 0;
    this.#baseId = this.#lastId = id;
    this.#wake();
    return true;
  }

  /**
   * Moves the log past ids that will never come here (another owner's range, see the scale
   * mode's remote conversations): the window restarts at `id`, readers behind it get a snapshot.
   */
  skipTo(id: number): void {
    if (this.#closed || id <= this.#lastId) return;
    this.#frames = [];
    this.#head = 0;
    this.#chars = 0;
    this.#baseId = this.#lastId = id;
    this.#wake();
  }

  /**
   * Whether a reader that saw everything up to `after` can continue from here without a gap:
   * the id was handed out by this log and the events after it are still kept.
   */
  canResumeAfter(after: number): boolean {
    if (after < this.#baseId || after > this.#lastId) return false;
    const first = this.#frames[this.#head];
    if (first === undefined || after === this.#lastId) return after === this.#lastId;
    if (after < first.prev) return false;
    // Ids past a jump were never handed out here: only an id a frame follows is a place to resume.
    return this.#frames[this.#indexAfter(after)]?.prev === after;
  }

  /** Every kept frame after `after`, joined; `gap` when some were already dropped. */
  readAfter(after: number, maxChars = 256_000): ReadResult {
    if (!this.canResumeAfter(after)) return this.#closed ? { kind: "closed" } : { kind: "gap" };
    let index = this.#indexAfter(after);
    let text = "";
    let lastId = after;
    while (index < this.#frames.length && text.length < maxChars) {
      const frame = this.#frames[index++]!;
      text += frame.text;
      lastId = frame.id;
    }
    if (text === "" && this.#closed) return { kind: "closed" };
    return { kind: "frames", text, lastId };
  }

  /** Whether an event of `type` is kept after `after`; undefined when some after it were dropped (or the log closed). */
  hasAfter(after: number, type: string): boolean | undefined {
    if (!this.canResumeAfter(after)) return undefined;
    for (let index = this.#indexAfter(after); index < this.#frames.length; index++) {
      if (this.#frames[index]!.type === type) return true;
    }
    return false;
  }

  /** The index of the first kept frame after `after` (which `canResumeAfter`). */
  #indexAfter(after: number): number {
    const frames = this.#frames;
    const first = frames[this.#head];
    if (first === undefined || frames[frames.length - 1]!.id <= after) return frames.length;
    // Ids are consecutive but for a jump now and then: computed, checked, else searched.
    const guess = this.#head + Math.max(0, after - first.id + 1);
    if (guess < frames.length && frames[guess]!.id > after && (guess === this.#head || frames[guess - 1]!.id <= after))
      return guess;
    let low = this.#head;
    let high = frames.length - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (frames[middle]!.id > after) high = middle;
      else low = middle + 1;
    }
    return low;
  }

  /**
   * Resolves when an event is appended after `after` or the log closes. No timer per wait:
   * readers handle their own heartbeat, so an append only costs a size check when nobody waits.
   */
  waitAfter(after: number): Promise<void> {
    return new Promise((resolve) => this.whenAfter(after, resolve));
  }

  /**
   * Calls `wake` (at once, or at the next append or close) like `waitAfter` resolves, without a
   * promise of its own: a reader that also waits for its heartbeat settles one promise with both.
   */
  whenAfter(after: number, wake: () => void): void {
    if (this.#lastId > after || this.#closed) wake();
    else this.#waiters.add(wake);
  }

  /** Registers a connected reader whose unread frames the log keeps (see `LogReader`). */
  attach(position: number | undefined): LogReader {
    const readers = this.#readers;
    const reader: LogReader = {
      position,
      detach: () => void readers.delete(reader),
    };
    readers.add(reader);
    return reader;
  }

  /** Ends every reader once it has read what is left. */
  close(): void {
    this.#closed = true;
    this.#wake();
  }

  /** The position of the connected reader furthest behind but not before `from`; Infinity when none. */
  #oldestReaderPosition(from: number): number {
    let oldest = Infinity;
    for (const { position } of this.#readers)
      if (position !== undefined && position >= from && position < oldest) oldest = position;
    return oldest;
  }

  #wake(): void {
    if (this.#waiters.size === 0) return;
    const waiters = [...this.#waiters];
    this.#waiters.clear();
    for (const wake of waiters) wake();
  }

  #trim(): void {
    const { maxEvents, maxChars, maxHeldChars } = this.#limits;
    let held: number | undefined;
    while (
      this.#frames.length - this.#head > maxEvents ||
      (this.#chars > maxChars && this.#frames.length - this.#head > 1)
    ) {
      const first = this.#frames[this.#head]!;
      // Past the replay window: the frame goes once no connected reader still needs it, or the hold is too large.
      held ??= this.#oldestReaderPosition(first.id - 1);
      if (first.id > held) {
        if (this.#chars <= maxHeldChars) break;
        held = undefined; // that reader falls out of the window now; the next one may still hold
      }
      this.#chars -= first.text.length;
      this.#head++;
    }
    // Compact now and then instead of shifting on every append.
    if (this.#head > 1024 && this.#head * 2 > this.#frames.length) {
      this.#frames = this.#frames.slice(this.#head);
      this.#head = 0;
    }
  }
}
