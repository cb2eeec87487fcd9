/**
 * The timeout for test work whose duration depends on the machine's load: builds, tsc, npm,
 * child processes, browsers, servers in other processes. Ten minutes: a loaded machine (CI
 * runners, several suites at once) makes such a test slow, never failed; a real hang still ends.
 */
export const SLOW_WORK_MS = 600_000;

/**
 * The bound for waiting on something that should happen promptly but runs at the machine's pace
 * (an event from a server, a poll, a step in another process): far longer than it ever takes,
 * still short of the slow-work timeout, so a wait that never ends fails with its own message.
 */
export const PROMPT_WAIT_MS = 120_000;
