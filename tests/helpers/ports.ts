import net from "node:net";

/**
 * A TCP port free on 127.0.0.1 right now, for a server a test starts in another process (or one that cannot
 * listen on port 0 and report back). No vitest import here: Playwright specs use it too.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
