import net from "node:net";

/** A loopback TCP proxy in front of a server (an RPC endpoint) that a test can cut and restore. */
export interface SwitchableProxy {
  url: string;
  /** Drops every open connection and refuses new ones: the server looks unreachable. */
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

export async function startSwitchableProxy(targetUrl: string): Promise<SwitchableProxy> {
  const target = new URL(targetUrl);
  const sockets = new Set<net.Socket>();
  let open = true;
  const track = (socket: net.Socket, peer: net.Socket) => {
    sockets.add(socket);
    socket.on("close", () => {
      sockets.delete(socket);
      peer.destroy();
    });
    socket.on("error", () => peer.destroy());
  };
  const server = net.createServer((client) => {
    if (!open) {
      client.destroy();
      return;
    }
    const upstream = net.connect(Number(target.port), target.hostname);
    track(client, upstream);
    track(upstream, client);
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    cut() {
      open = false;
      for (const socket of sockets) socket.destroy();
    },
    restore() {
      open = true;
    },
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
