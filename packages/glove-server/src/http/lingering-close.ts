import type { IncomingMessage } from "node:http";

/**
 * How long, and how many more body bytes, a connection answered before its request body was read
 * keeps reading (and discarding) once the answer is out. Past either bound it is destroyed.
 */
export const LINGER_LIMITS = { ms: 5000, bytes: 32 * 1024 * 1024 };

/**
 * Makes the close that ends this exchange graceful. An answer sent before the body was read (a
 * 413 on Content-Length, a 401) closes the connection while the client may still be sending.
 * Node ends such an exchange with `socket.destroySoon()`: the socket is destroyed as soon as the
 * answer is handed to the kernel, with the rest of the body unread, and closing a socket with
 * unread input sends a TCP reset — which can discard the answer before the client reads it (a
 * raw client got no bytes, fetch a TypeError). Instead: end the write side (the answer, then FIN),
 * go on reading and discarding the body, and destroy the socket once the client closes its side
 * or a bound of LINGER_LIMITS is passed.
 */
export function closeGracefully(req: IncomingMessage, limits = LINGER_LIMITS): void {
  const socket = req.socket;
  // An own property on this one socket: node calls it once the answer is written (res._last).
  socket.destroySoon = () => {
    socket.end();
    let discarded = 0;
    const stop = () => {
      clearTimeout(timer);
      socket.destroy();
    };
    const timer = setTimeout(stop, limits.ms);
    timer.unref();
    socket.once("close", () => clearTimeout(timer));
    // The body reader (a cancelled web stream) would pause the request again: only this one reads now.
    req.removeAllListeners("data");
    req.on("data", (chunk: Buffer) => {
      discarded += chunk.length;
      if (discarded > limits.bytes) stop();
    });
    req.resume();
  };
}
