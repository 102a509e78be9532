import pg from "pg";
import type { Logger } from "../logging/logger";

const RECONNECT_DELAY_MS = 2_000;

export interface Listener {
  /**
   * Calls `listener` on every notification with its payload, and after each reconnect with none
   * (one may have been missed).
   */
  subscribe(listener: (payload?: string) => void): void;
  /** Whether notifications arrive now: false before the first connect and while reconnecting. */
  listening(): boolean;
  close(): Promise<void>;
}

/**
 * LISTENs on one channel over a dedicated connection (a pooled one could be handed to a query
 * mid-notification). A lost connection is retried every few seconds; meanwhile subscribers rely
 * on their own periodic checks, and after reconnecting they are called once, since a
 * notification may have been missed.
 */
export function listenFor(databaseUrl: string, channel: string, logger: Logger): Listener {
  const listeners: Array<(payload?: string) => void> = [];
  const notify = (payload?: string) => {
    for (const listener of listeners) listener(payload);
  };
  let client: pg.Client | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  const connect = async (reconnecting: boolean) => {
    const next = new pg.Client({ connectionString: databaseUrl });
    next.on("notification", (message) => {
      if (message.channel === channel) notify(message.payload);
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
    listening: () => client !== null,
    close: async () => {
      closed = true;
      clearTimeout(retry);
      const open = client;
      client = null;
      await open?.end();
    },
  };
}
