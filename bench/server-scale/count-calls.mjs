// Preload for instance.mjs (`NODE_OPTIONS="--import ./bench/server-scale/count-calls.mjs"`,
// BENCH_COUNT_DIR=<dir>): counts every Redis command (scripts by their first key's last part) and
// every PostgreSQL query (by the start of its SQL) the process sends, and writes the counts to
// <dir>/<pid>.json when it exits. Counting twice with different BENCH_TURNS gives the calls per turn.
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import net from "node:net";
import process from "node:process";

const require = createRequire(`${process.cwd()}/package.json`);
const { Redis } = require("ioredis");
const pg = require("pg");
const counts = { redis: {}, pg: {}, writes: {} };
const bump = (table, key) => (table[key] = (table[key] ?? 0) + 1);

const sendCommand = Redis.prototype.sendCommand;
Redis.prototype.sendCommand = function (command, ...rest) {
  let name = command.name;
  if (name === "evalsha" || name === "eval") {
    const firstKey = String(command.args[2] ?? "");
    name = `${name} ${firstKey
      .split(":")
      .slice(-1)[0]
      .replace(
        /^[0-9a-f-]{36}$/,
        "<id>",
      )} (${command.args[1]} keys, ${command.args.length - 2 - Number(command.args[1])} args)`;
  }
  bump(counts.redis, name);
  return sendCommand.call(this, command, ...rest);
};
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function (config, ...rest) {
  const text = typeof config === "string" ? config : (config?.text ?? config?.name ?? "?");
  bump(
    counts.pg,
    String(text)
      .replace(/\s+/g, " ")
      .replace(/"?[a-z0-9_]+"?\.(glove)/g, "$1")
      .trim()
      .slice(0, 80),
  );
  return query.call(this, config, ...rest);
};
// Socket writes (each one a syscall; on loopback the receiver's side runs in it too) by peer.
const writeGeneric = net.Socket.prototype._writeGeneric;
net.Socket.prototype._writeGeneric = function (...args) {
  bump(counts.writes, this.remotePort === 5432 ? "postgres" : this.remotePort === 6379 ? "redis" : "http clients");
  return writeGeneric.apply(this, args);
};
process.on("exit", () => {
  if (process.env.BENCH_COUNT_DIR)
    writeFileSync(
      `${process.env.BENCH_COUNT_DIR}/${process.argv[2] ?? "process"}${process.env.BENCH_GLOVE_SERVER === process.env.BENCH_BEFORE ? "-before" : ""}-${process.pid}.json`,
      JSON.stringify(counts, null, 1),
    );
});
