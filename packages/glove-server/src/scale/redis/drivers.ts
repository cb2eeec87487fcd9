/**
 * bullmq and ioredis, loaded when "glove-server/redis" is imported. They are optional peers of
 * glove-server (a SQLite app needs neither); a missing one fails the import with a
 * MissingDependencyError that says what to install.
 */
import { importOptional } from "../../optional/optional-import.js";

const [bullmq, ioredis] = await importOptional(
  "glove-server/redis (the scale mode)",
  ["bullmq", "ioredis"],
  [() => import("bullmq"), () => import("ioredis")],
);

export const { Queue, Worker, DelayedError } = bullmq;
export const { Redis } = ioredis;
