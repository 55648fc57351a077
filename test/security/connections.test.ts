import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyDeadlineMs } from '../../src/server/connection-limits.ts';
import { IDLE_CLOSE_CODE, TOO_MANY_SOCKETS_CLOSE_CODE } from '../../src/server/graphql-ws.ts';
import { RawClient } from '../support/raw-websocket.ts';
import { newThread, setUpAgent } from '../support/scenario.ts';
import { eventually, startTestServer, type TestServer } from '../support/server.ts';

// What one client can hold of the server: connections (in all and per address), a request whose
// headers or body never end, WebSockets without a token, sockets that run nothing. The limits are
// set small here, so the attacks stay within the file descriptors of one test process.

const HEADERS_TIMEOUT_MS = 5_000;
const REQUEST_TIMEOUT_MS = 1_000;
const PER_ADDRESS = 200;
const SLOW_CONNECTIONS = 1_000;
const ANONYMOUS_WEBSOCKETS = 5;
const IDLE_TIMEOUT_MS = 1_000;

/** A normal request from another loopback address than the attack's. */
function healthFrom(server: TestServer, localAddress: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.get(server.url.replace('/graphql', '/health'), { localAddress, agent: false }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode!));
    });
    request.on('error', reject);
  });
}

interface SlowConnection {
  socket: net.Socket;
  openedAt: number;
  closedAt: number | null;
  answer: string;
}

/** Opens a connection that sends the start of a request's headers, and never their end. */
function slowHeaders(server: TestServer): Promise<SlowConnection> {
  const { port } = new URL(server.url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port: Number(port) });
    // Before the server can have accepted it: the server's timer starts later.
    const connection: SlowConnection = { socket, openedAt: performance.now(), closedAt: null, answer: '' };
    socket.on('connect', () => {
      socket.write('GET /health HTTP/1.1\r\nHost: parley\r\nX-Slow: ');
      resolve(connection);
    });
    socket.on('data', (chunk: Buffer) => (connection.answer += chunk.toString('latin1')));
    // A connection the server refuses at once may be reset before the client sees it connected.
    socket.on('error', () => {});
    socket.on('close', () => {
      connection.closedAt = performance.now();
      resolve(connection);
    });
  });
}

async function limitHits(server: TestServer, limit: string): Promise<number> {
  const metrics = await server.parley.metrics.registry.getSingleMetricAsString('parley_connection_limits_hit_total');
  const line = metrics.split('\n').find((row) => row.startsWith(`parley_connection_limits_hit_total{limit="${limit}"}`));
  return line ? Number(line.split(' ').pop()) : 0;
}

describe('HTTP connections', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({
      env: {
        PARLEY_HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
        PARLEY_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
        PARLEY_MAX_CONNECTIONS_PER_ADDRESS: String(PER_ADDRESS),
      },
    });
  });

  afterAll(async () => {
    await server?.stop();
  });

  it(`holds at most ${PER_ADDRESS} of ${SLOW_CONNECTIONS} slow-header connections from one address, answers another address meanwhile, and closes the slow ones at the headers timeout`, async () => {
    const connections = await Promise.all(Array.from({ length: SLOW_CONNECTIONS }, () => slowHeaders(server)));
    const held = () => connections.filter((connection) => connection.closedAt === null);
    // Every connection the server accepted is open, refused at once, or closed at the headers timeout.
    const open = async () => Number((await server.parley.metrics.connectionsOpen.get()).values[0]?.value ?? 0);
    const accepted = async () =>
      (await limitHits(server, 'connections_per_address')) + (await limitHits(server, 'headers_timeout')) + (await open());
    await eventually(async () => (await accepted()) >= SLOW_CONNECTIONS, 20_000, 'the server accepting every connection');
    expect(await open()).toBeLessThanOrEqual(PER_ADDRESS);
    expect(await open()).toBeGreaterThan(0);
    expect(await healthFrom(server, '127.0.0.2')).toBe(200);

    await eventually(() => held().length === 0, 20_000, 'the slow connections closed at the headers timeout');
    // Each was either refused at once, with no answer, or held until the headers timeout and answered 408.
    const refused = connections.filter((connection) => connection.answer === '');
    const timedOut = connections.filter((connection) => connection.answer !== '');
    expect(refused.length).toBeGreaterThan(0);
    expect(await limitHits(server, 'connections_per_address')).toBe(refused.length);
    for (const connection of timedOut) {
      expect(connection.answer).toMatch(/^HTTP\/1\.1 408 /);
      expect(connection.closedAt! - connection.openedAt).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS);
    }
    expect(await limitHits(server, 'headers_timeout')).toBe(timedOut.length);
    expect(await healthFrom(server, '127.0.0.1')).toBe(200);
  });

  it('answers 408 to a body that stops arriving, at the request timeout', async () => {
    const { port } = new URL(server.url);
    const socket = net.connect({ host: '127.0.0.1', port: Number(port) });
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('utf8')));
    const closed = new Promise<number>((resolve) => socket.on('close', () => resolve(performance.now())));
    await new Promise<void>((resolve) => socket.on('connect', () => resolve()));
    const startedAt = performance.now();
    socket.write('POST /graphql HTTP/1.1\r\nHost: parley\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"query":');
    expect((await closed) - startedAt).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS * 0.9);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer).toContain('REQUEST_TIMEOUT');
    expect(await limitHits(server, 'request_timeout')).toBeGreaterThanOrEqual(1);
  });

  it('gives an upload longer, bounded by its size', () => {
    const limits = { requestTimeoutMs: 30_000, minUploadBytesPerS: 250_000, maxMultipartBytes: 51_000_000, headersTimeoutMs: 10_000, maxConnections: 1, maxConnectionsPerAddress: 1 };
    const request = (headers: Record<string, string>) => ({ headers }) as unknown as http.IncomingMessage;
    expect(bodyDeadlineMs(request({ 'content-type': 'application/json', 'content-length': '900000' }), limits)).toBe(30_000);
    expect(bodyDeadlineMs(request({ 'content-type': 'multipart/form-data; boundary=x', 'content-length': '5000000' }), limits)).toBe(50_000);
    // No declared length, or one beyond the largest body: the largest body's time.
    expect(bodyDeadlineMs(request({ 'content-type': 'multipart/form-data; boundary=x' }), limits)).toBe(234_000);
    expect(bodyDeadlineMs(request({ 'content-type': 'multipart/form-data; boundary=x', 'content-length': '1e12' }), limits)).toBe(234_000);
  });
});

describe('PARLEY_MAX_CONNECTIONS', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ env: { PARLEY_MAX_CONNECTIONS: '50' } });
  });

  afterAll(async () => {
    await server?.stop();
  });

  it('closes the connections beyond it as they arrive, and counts them', async () => {
    const connections = await Promise.all(Array.from({ length: 80 }, () => slowHeaders(server)));
    await eventually(() => connections.filter((connection) => connection.closedAt !== null).length >= 30, 10_000, 'the 30 beyond the cap closed');
    expect(connections.filter((connection) => connection.closedAt === null).length).toBeLessThanOrEqual(50);
    expect(await limitHits(server, 'max_connections')).toBeGreaterThanOrEqual(30);
    for (const connection of connections) connection.socket.destroy();
    await eventually(async () => (await healthFrom(server, '127.0.0.1').catch(() => 0)) === 200, 10_000, 'a place free again');
  });
});

describe('WebSockets without a token, and idle ones', () => {
  let server: TestServer;
  const clients: RawClient[] = [];

  beforeAll(async () => {
    server = await startTestServer({
      env: {
        PARLEY_WS_MAX_ANONYMOUS_SOCKETS_PER_ADDRESS: String(ANONYMOUS_WEBSOCKETS),
        PARLEY_WS_IDLE_TIMEOUT_MS: String(IDLE_TIMEOUT_MS),
      },
    });
  });

  afterAll(async () => {
    for (const client of clients) client.close();
    await server?.stop();
  });

  const client = (localAddress = '127.0.0.1') => {
    const opened = new RawClient(server.wsUrl, { localAddress });
    clients.push(opened);
    return opened;
  };

  it(`acknowledges ${ANONYMOUS_WEBSOCKETS} anonymous sockets per address, refuses the next with 4429, and closes idle ones at the idle timeout`, async () => {
    const anonymous = Array.from({ length: ANONYMOUS_WEBSOCKETS + 3 }, () => client());
    const outcomes = [];
    for (const socket of anonymous) outcomes.push(await socket.init({}));
    expect(outcomes.slice(0, ANONYMOUS_WEBSOCKETS)).toEqual(Array.from({ length: ANONYMOUS_WEBSOCKETS }, () => 'acknowledged'));
    for (const outcome of outcomes.slice(ANONYMOUS_WEBSOCKETS)) {
      expect(outcome).toEqual({ code: TOO_MANY_SOCKETS_CLOSE_CODE, reason: 'Too many sockets without a token from this address' });
    }
    // Another address has places of its own.
    expect(await client('127.0.0.2').init({})).toBe('acknowledged');
    expect(await limitHits(server, 'websocket_anonymous_per_address')).toBe(3);

    const acknowledgedAt = performance.now();
    const idle = anonymous.slice(0, ANONYMOUS_WEBSOCKETS);
    await eventually(() => idle.every((socket) => socket.closed), 10_000, 'the idle sockets closed');
    expect(performance.now() - acknowledgedAt).toBeGreaterThanOrEqual(IDLE_TIMEOUT_MS * 0.5);
    for (const socket of idle) expect(socket.closed?.code).toBe(IDLE_CLOSE_CODE);
    expect(await limitHits(server, 'websocket_idle_timeout')).toBeGreaterThanOrEqual(ANONYMOUS_WEBSOCKETS);
    // Their places are free again.
    expect(await client().init({})).toBe('acknowledged');
  });

  it('keeps a socket open while it runs a subscription', async () => {
    const { token, agentId } = await setUpAgent(server);
    const threadId = await newThread(server, token, agentId);
    const subscribed = client();
    const idle = client();
    expect(await subscribed.init({ authorization: `Bearer ${token}` })).toBe('acknowledged');
    expect(await idle.init({ authorization: `Bearer ${token}` })).toBe('acknowledged');
    subscribed.subscribe('events', threadId, null);
    await eventually(() => idle.closed, 10_000, 'the idle sibling closed');
    expect(idle.closed?.code).toBe(IDLE_CLOSE_CODE);
    expect(subscribed.closed).toBeNull();
    // Once its subscription completes, it is idle too.
    subscribed.complete('events');
    await eventually(() => subscribed.closed, 10_000, 'the socket closed once idle');
    expect(subscribed.closed?.code).toBe(IDLE_CLOSE_CODE);
  });
});
