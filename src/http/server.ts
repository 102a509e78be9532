import type { Server } from "node:http";
import type { Express } from "express";
import { answerClientErrors } from "./client-errors";

export interface RunningServer {
  server: Server;
  port: number;
  close(): Promise<void>;
}

/** Listens and resolves with the bound port (port 0 picks a free one, as tests do). */
export function listen(app: Express, port: number, host: string): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    const server = app.listen(port, host);
    answerClientErrors(server);
    server.once("error", reject);
    server.once("listening", () => {
      const address = server.address();
      const boundPort = typeof address === "object" && address ? address.port : port;
      resolve({
        server,
        port: boundPort,
        close: () =>
          new Promise<void>((done, fail) => {
            server.close((error) => (error ? fail(error) : done()));
            server.closeIdleConnections();
          }),
      });
    });
  });
}
