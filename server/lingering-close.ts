import type { IncomingMessage } from "node:http";
import type { Socket } from "node:net";
import type { NextFunction, Request, Response } from "express";

/**
 * A refusal that ends the connection (413 too large, 403 cross-site) is answered before the upload it refuses has
 * arrived. Node then closes the socket at once, and the client's bytes still on their way make the kernel answer
 * with a reset, which throws away the answer the client has not read yet: the visitor saw "connection reset"
 * instead of the page saying what was wrong. Like Apache's lingering close, the socket instead sends the answer and
 * its end (FIN), then reads and drops what is still coming, for at most LINGER_BYTES or LINGER_MS, and only then
 * closes. A client that goes on sending beyond that is cut off as before.
 */
export const LINGER_BYTES = 1024 * 1024;
export const LINGER_MS = 2000;

const CURRENT = Symbol("lingering-close.request");
type LingeringSocket = Socket & { [CURRENT]?: IncomingMessage; lingers?: boolean };

export function lingeringClose(req: Request, _res: Response, next: NextFunction) {
  const socket = req.socket as LingeringSocket;
  socket[CURRENT] = req;
  if (!socket.lingers && typeof socket.destroySoon === "function") {
    socket.lingers = true;
    const destroySoon = socket.destroySoon.bind(socket);
    // Node calls destroySoon once the last answer on a connection (Connection: close) has been handed over.
    socket.destroySoon = () => {
      const current = socket[CURRENT];
      if (!current || current.complete || current.destroyed) return destroySoon();
      drainThenClose(socket, current);
    };
  }
  next();
}

function drainThenClose(socket: Socket, req: IncomingMessage): void {
  let seen = 0;
  const close = () => {
    clearTimeout(timer);
    socket.destroy();
  };
  const timer = setTimeout(close, LINGER_MS);
  timer.unref();
  socket.end(); // the answer, then FIN: the client reads it when its upload stops
  socket.once("close", () => clearTimeout(timer));
  req.on("data", (chunk: Buffer) => {
    seen += chunk.length;
    if (seen > LINGER_BYTES) close();
  });
  req.once("end", close);
  req.once("error", close);
  req.resume();
}
