import pg from "pg";
import type { Logger } from "../logging/logger";

const RECONNECT_DELAY_MS = 2_000;

export interface Listener {
  /** Calls `listener` on every notification, and after each reconnect (one may have been missed). */
  subscribe(listener: () => void): void;
  close(): Promise<void>;
}

/**
 * LISTENs on one channel over a dedicated connection (a pooled one could be handed to a query
 * mid-notification). A lost connection is retried every few seconds; meanwhile subscribers rely
 * on their own periodic checks, and after reconnecting they are called once, since a
 * notification may have been missed.
 */
export function listenFor(databaseUrl: string, channel: string, logger: Logger): Listener {
  const listeners: Array<() => void> = [];
  const notify = () => {
    for (const listener of listeners) listener();
  };
  let client: pg.Client | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  const connect = async (reconnecting: boolean) => {
    const next = new pg.Client({ connectionString: databaseUrl });
    next.on("notification", (message) => {
      if (message.channel === channel) notify();
    });
    next.on("error", (error) => {
      logger.warn({ err: error, channel }, "notification connection lost; retrying");
      scheduleReconnect();
    });
    next.on("end", () => scheduleReconnect());
    try {
      await next.connect();
      await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    } catch (error) {
      logger.warn({ err: error, channel }, "could not listen for notifications; retrying");
      next.end().catch(() => undefined);
      scheduleReconnect();
      return;
    }
    if (closed) {
      await next.end();
      return;
    }
    client = next;
    if (reconnecting) notify();
  };
  const scheduleReconnect = () => {
    if (closed || retry) return;
    client = null;
    retry = setTimeout(() => {
      retry = undefined;
      void connect(true);
    }, RECONNECT_DELAY_MS);
    retry.unref();
  };
  void connect(false);

  return {
    subscribe: (listener) => {
      listeners.push(listener);
    },
    close: async () => {
      closed = true;
      clearTimeout(retry);
      const open = client;
      client = null;
      await open?.end();
    },
  };
}
