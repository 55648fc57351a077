// A minimal round-robin TCP balancer for trying several Parley instances behind one URL on one
// machine (HTTP and WebSocket alike, since it forwards whole connections). Not for production:
// use your load balancer there.
//   npx tsx scripts/balancer.ts <listen-port> <backend-port> [<backend-port> ...]
import net from 'node:net';

export function startBalancer(listenPort: number, backendPorts: number[], host = '127.0.0.1'): Promise<net.Server> {
  let next = 0;
  const server = net.createServer((client) => {
    const port = backendPorts[next++ % backendPorts.length]!;
    const backend = net.connect(port, host);
    client.pipe(backend).pipe(client);
    const close = () => {
      client.destroy();
      backend.destroy();
    };
    client.on('error', close);
    backend.on('error', close);
  });
  return new Promise((resolve) => server.listen(listenPort, host, () => resolve(server)));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [listen, ...backends] = process.argv.slice(2).map(Number);
  if (!listen || backends.length === 0 || backends.some((port) => !Number.isInteger(port))) {
    console.error('usage: npx tsx scripts/balancer.ts <listen-port> <backend-port> [<backend-port> ...]');
    process.exit(2);
  }
  await startBalancer(listen, backends);
  console.log(`Balancing http://127.0.0.1:${listen}/graphql over ports ${backends.join(', ')}`);
}
