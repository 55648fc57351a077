import net from 'node:net';
import http from 'node:http';
const target = http.createServer((req, res) => { res.end('hello ' + req.url); });
await new Promise<void>(r => target.listen(0, '127.0.0.1', r));
const tport = (target.address() as net.AddressInfo).port;
const server = net.createServer((client) => {
  client.pause();
  void (async () => {
    await new Promise(r => setTimeout(r, 50));
    const upstream = net.connect(tport, '127.0.0.1');
    client.pipe(upstream).pipe(client);
    client.resume();
  })();
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const { port } = server.address() as net.AddressInfo;
console.log(await (await fetch(`http://127.0.0.1:${port}/x`, {signal: AbortSignal.timeout(3000)})).text());
process.exit(0);
