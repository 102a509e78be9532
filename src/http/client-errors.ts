import { maxHeaderSize, type Server, STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import { errorBody } from "./errors";

const MESSAGES: Record<number, string> = {
  408: "The request did not arrive in time (HTTP_HEADERS_TIMEOUT, HTTP_REQUEST_TIMEOUT)",
  414: `The request line is longer than ${maxHeaderSize} bytes`,
  431: `The request line and headers are longer than ${maxHeaderSize} bytes`,
};

/**
 * Requests Node refuses before Express sees them (a request line or headers over Node's size
 * limit, a malformed request) get the API's JSON error body instead of Node's bare status line.
 * Node reports an oversized request line and oversized headers alike (HPE_HEADER_OVERFLOW): when
 * the request line alone is over the limit, the URI is what was too long (414). A request that
 * does not arrive within the server's timeouts gets 408.
 */
export function answerClientErrors(server: Server): void {
  server.on("clientError", (error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex) => {
    if (!socket.writable || (error.code === "ECONNRESET" && socket.destroyed)) {
      socket.destroy();
      return;
    }
    const status = statusFor(error);
    const body = JSON.stringify(errorBody(status, MESSAGES[status] ?? "The request is malformed"));
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
        "Content-Type: application/json; charset=utf-8\r\n" +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        "Connection: close\r\n\r\n" +
        body,
    );
  });
}

function statusFor(error: NodeJS.ErrnoException & { rawPacket?: Buffer }): number {
  if (error.code === "ERR_HTTP_REQUEST_TIMEOUT") return 408;
  if (error.code !== "HPE_HEADER_OVERFLOW") return 400;
  const lineEnd = error.rawPacket?.indexOf("\r\n") ?? -1;
  return lineEnd === -1 || lineEnd > maxHeaderSize ? 414 : 431;
}
