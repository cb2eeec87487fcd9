// Preloaded (node --import) into the conformance CLI. Its scenario servers call `listen(0)` with
// no host (every interface) and read `address().port` on the next line, so the host cannot be
// added the usual way (a host makes listen resolve it asynchronously and address() is still null).
// Instead the socket is bound to 127.0.0.1 up front and handed to listen(), which is synchronous.
import process from "node:process";
import net from "node:net";

const { TCP, constants } = process.binding("tcp_wrap");
const listen = net.Server.prototype.listen;

net.Server.prototype.listen = function loopbackListen(...args) {
  const first = args[0];
  const portOnly =
    first === undefined ||
    typeof first === "function" ||
    typeof first === "number" ||
    (typeof first === "string" && /^\d+$/.test(first));
  if (portOnly && typeof args[1] !== "string") {
    const port = typeof first === "function" || first === undefined ? 0 : Number(first);
    const handle = new TCP(constants.SERVER);
    const err = handle.bind("127.0.0.1", port);
    if (err) throw new Error(`could not bind 127.0.0.1:${port} (uv error ${err})`);
    const callback = args.find((a) => typeof a === "function");
    return callback ? listen.call(this, handle, callback) : listen.call(this, handle);
  }
  return listen.apply(this, args);
};
