// Preloaded (node --import) into server-everything: its HTTP servers call listen(PORT) with no
// host, which binds every interface. Force 127.0.0.1 and report the real port on stderr.
import net from "node:net";
import process from "node:process";

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function patchedListen(...args) {
  const first = args[0];
  if (first !== null && typeof first === "object") {
    if (!("path" in first)) args[0] = { ...first, host: "127.0.0.1" };
  } else if (typeof first === "number" || (typeof first === "string" && /^\d+$/.test(first))) {
    if (typeof args[1] === "string") args[1] = "127.0.0.1";
    else args.splice(1, 0, "127.0.0.1");
  }
  this.once("listening", () => {
    const address = this.address();
    if (address && typeof address === "object") {
      process.stderr.write(`GLOVE_MCP_CLI_LISTENING ${address.address} ${address.port}\n`);
    }
  });
  return listen.apply(this, args);
};
