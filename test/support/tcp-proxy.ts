import net from 'node:net';

/**
 * A TCP proxy in front of a real service (Redis here) that a test can make misbehave the way a
 * network or a busy server does: hold the replies back, cut the connections, refuse new ones.
 * Connections are tagged by what the client sends through them (`publish` or `subscribe` for
 * ioredis' two connections), so a test can cut one role only.
 */
export interface TcpProxy {
  url(protocol: string): string;
  /** Holds every server-to-client byte until `release()` (order kept). */
  hold(): void;
  release(): void;
  /** Destroys the open connections of a role (all of them without one). */
  cut(role?: ConnectionRole): void;
  /** New connections are closed at once until `accept()`. */
  refuse(): void;
  accept(): void;
  /** How many connections of a role are open. */
  open(role?: ConnectionRole): number;
  /** How many open connections (of a role, or of all) have sent this (lower case, e.g. `setinfo`). */
  sent(text: string, role?: ConnectionRole): number;
  close(): Promise<void>;
}

export type ConnectionRole = 'publish' | 'subscribe' | 'other';

interface Link {
  client: net.Socket;
  server: net.Socket;
  role: ConnectionRole;
  heldBack: Buffer[];
  /** What the client sent (lower case, the first 64 kB), to wait for a command to have gone out. */
  sent: string;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const links = new Set<Link>();
  let holding = false;
  let refusing = false;
  const proxy = net.createServer((client) => {
    if (refusing) {
      client.destroy();
      return;
    }
    const server = net.connect(target.port, target.host);
    const link: Link = { client, server, role: 'other', heldBack: [], sent: '' };
    links.add(link);
    client.on('data', (chunk: Buffer) => {
      const text = chunk.toString('latin1').toLowerCase();
      if (link.sent.length < 64_000) link.sent += text;
      if (link.role === 'other') {
        if (text.includes('\r\npublish\r\n')) link.role = 'publish';
        else if (text.includes('\r\nsubscribe\r\n')) link.role = 'subscribe';
      }
      server.write(chunk);
    });
    server.on('data', (chunk: Buffer) => {
      if (holding) link.heldBack.push(chunk);
      else client.write(chunk);
    });
    const drop = () => {
      links.delete(link);
      client.destroy();
      server.destroy();
    };
    client.on('error', drop);
    server.on('error', drop);
    client.on('close', drop);
    server.on('close', drop);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const port = (proxy.address() as net.AddressInfo).port;
  const matching = (role?: ConnectionRole) => [...links].filter((link) => role === undefined || link.role === role);
  return {
    url: (protocol) => `${protocol}//127.0.0.1:${port}`,
    hold: () => {
      holding = true;
    },
    release: () => {
      holding = false;
      for (const link of links) for (const chunk of link.heldBack.splice(0)) link.client.write(chunk);
    },
    cut: (role) => {
      for (const link of matching(role)) {
        links.delete(link);
        link.client.destroy();
        link.server.destroy();
      }
    },
    refuse: () => {
      refusing = true;
    },
    accept: () => {
      refusing = false;
    },
    open: (role) => matching(role).length,
    sent: (text, role) => matching(role).filter((link) => link.sent.includes(text)).length,
    close: async () => {
      for (const link of links) {
        link.client.destroy();
        link.server.destroy();
      }
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    },
  };
}
