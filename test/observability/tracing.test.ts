import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/observability/logging.ts';
import { buildApp } from '../../src/server/app.ts';
import { ofKind } from '../support/run-events.ts';
import { follow } from '../support/follower.ts';
import { startMcpServer, type TestMcpServer } from '../support/mcp-server.ts';
import { newThread, setUpAgent } from '../support/scenario.ts';
import { eventually, startTestServer, type TestServer } from '../support/server.ts';

const SEND = 'mutation($t: ID!, $x: String!) { sendMessage(threadId: $t, text: $x) { __typename ... on MessageQueued { queueId } } }';

const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;
const idOf = (span: ReadableSpan) => span.spanContext().spanId;
const traceOf = (span: ReadableSpan) => span.spanContext().traceId;

describe('traces (OpenTelemetry, in-memory exporter)', () => {
  const exporter = new InMemorySpanExporter();
  let server: TestServer;
  let mcp: TestMcpServer;
  let token: string;
  let agentId: string;

  beforeAll(async () => {
    mcp = await startMcpServer();
    server = await startTestServer({
      env: { PARLEY_RETRY_MAX_ATTEMPTS: '2', PARLEY_RETRY_DEADLINE_S: '60', PARLEY_TOOL_ALLOWED_HOSTS: '127.0.0.1', PARLEY_SECRET_KEY: 'b'.repeat(64) },
      overrides: { spanExporter: exporter },
    });
    ({ token, agentId } = await setUpAgent(server));
  });
  afterAll(async () => {
    await server?.stop();
    await mcp?.stop();
  });

  /** Sends `text` with a request id of our own and waits for its turn to finish; returns its spans. */
  async function turnOf(text: string, expectedStatus: string) {
    const threadId = await newThread(server, token, agentId);
    const requestId = `trace-${randomUUID()}`;
    const follower = follow(server, token, threadId);
    try {
      const response = await fetch(server.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'x-request-id': requestId },
        body: JSON.stringify({ query: SEND, variables: { t: threadId, x: text } }),
      });
      expect(((await response.json()) as { data: { sendMessage: { __typename: string } } }).data.sendMessage.__typename).toBe(
        'MessageQueued',
      );
      const events = await follower.waitUntil((all) => ofKind(all, 'ExecutionFinished').length === 1, 30_000);
      expect(ofKind(events, 'ExecutionFinished')[0]!.status).toBe(expectedStatus);
    } finally {
      await follower.close();
    }
    const request = await eventually(() =>
      exporter.getFinishedSpans().find((span) => span.name === 'mutation sendMessage' && span.attributes['parley.request_id'] === requestId),
    );
    const turn = await eventually(() =>
      exporter.getFinishedSpans().find((span) => span.name === 'parley.turn' && span.attributes['parley.queued_by_request_id'] === requestId),
    );
    const inTurn = exporter.getFinishedSpans().filter((span) => traceOf(span) === traceOf(turn));
    return { request, turn, inTurn, requestId };
  }

  it('one trace per turn: admission, the model call, the settlement, linked to the request that queued it', async () => {
    const { request, turn, inTurn } = await turnOf('hello', 'COMPLETED');
    expect(turn.parentSpanContext).toBeUndefined();
    expect(traceOf(turn)).not.toBe(traceOf(request));
    expect(turn.links.map((link) => link.context.spanId)).toEqual([idOf(request)]);
    expect(turn.attributes['parley.outcome']).toBe('COMPLETED');
    expect(inTurn.filter((span) => span.name === 'parley.turn')).toHaveLength(1);

    const named = (name: string) => inTurn.filter((span) => span.name === name);
    expect(named('parley.admission')).toHaveLength(1);
    expect(parentOf(named('parley.admission')[0]!)).toBe(idOf(turn));
    const [streamText] = named('ai.streamText');
    expect(streamText && parentOf(streamText)).toBe(idOf(turn));
    expect(named('ai.streamText.doStream').map(parentOf)).toEqual([idOf(streamText!)]);
    expect(named('parley.settlement').map(parentOf)).toEqual([idOf(turn)]);
    // Prompts and replies stay out of the spans.
    expect(JSON.stringify(inTurn.map((span) => span.attributes))).not.toContain('hello');
  });

  it('a retried and failed turn shows the retry and the error', async () => {
    const { turn, inTurn } = await turnOf('/fail rate_limit', 'FAILED');
    const retries = inTurn.filter((span) => span.name === 'parley.retry');
    expect(retries).toHaveLength(1);
    expect(parentOf(retries[0]!)).toBe(idOf(turn));
    expect(retries[0]!.attributes).toMatchObject({ 'parley.retry.attempt': 1, 'parley.retry.reason': 'RATE_LIMIT' });
    expect(inTurn.filter((span) => span.name === 'ai.streamText')).toHaveLength(2);
    expect(turn.attributes['parley.error_reason']).toBe('RATE_LIMIT');
    expect(turn.status.code).toBe(2);
  });

  it('tool calls are spans of the model call that made them, delegated children inside the same trace', async () => {
    const { turn, inTurn } = await turnOf('/delegate hi', 'COMPLETED');
    const toolCalls = inTurn.filter((span) => span.name === 'ai.toolCall');
    expect(toolCalls.length).toBeGreaterThanOrEqual(1);
    const streamTextIds = new Set(inTurn.filter((span) => span.name === 'ai.streamText').map(idOf));
    for (const call of toolCalls) expect(streamTextIds).toContain(parentOf(call));
    // The child's own model call runs inside the delegate tool call.
    const childCalls = inTurn.filter((span) => span.name === 'ai.streamText' && toolCalls.map(idOf).includes(parentOf(span)!));
    expect(childCalls).toHaveLength(1);
    expect(inTurn.filter((span) => span.name === 'parley.turn').map(idOf)).toEqual([idOf(turn)]);
  });

  it("a tool server's call is one span that names the server, the tool and how it ended, never its input, output or headers", async () => {
    const { projectId } = await server.parley.db.prisma.agent.findUniqueOrThrow({ where: { id: agentId } });
    const user = await server.parley.services.directory.findUser((await server.parley.db.prisma.membership.findFirstOrThrow({ where: { projectId } })).userId);
    await server.parley.services.tools.add(user, projectId, { name: 'tools', url: mcp.url, headers: [{ name: 'X-Api-Key', value: 'header-secret-9' }] });
    await server.parley.services.directory.updateAgent(user, agentId, { tools: ['tools/echo', 'tools/fail'], toolApprovals: [{ tool: 'tools/*', approval: 'NEVER' }] });

    const succeeded = await turnOf('/tool tools/echo {"text":"classified-input"}', 'COMPLETED');
    const [call] = succeeded.inTurn.filter((span) => span.name === 'ai.toolCall');
    expect(succeeded.inTurn.filter((span) => span.name === 'ai.toolCall')).toHaveLength(1);
    expect(call!.attributes).toMatchObject({ 'parley.tool.server': 'tools', 'parley.tool.name': 'echo', 'parley.tool.outcome': 'SUCCEEDED' });
    const recorded = JSON.stringify(succeeded.inTurn.map((span) => [span.attributes, span.events]));
    for (const secret of ['classified-input', 'header-secret-9']) expect(recorded).not.toContain(secret);

    const failed = await turnOf('/tool tools/fail {}', 'COMPLETED');
    const failedCalls = failed.inTurn.filter((span) => span.name === 'ai.toolCall');
    expect(failedCalls.map((span) => span.attributes['parley.tool.outcome'])).toEqual(['FAILED']);
    expect(JSON.stringify(failed.inTurn.map((span) => span.attributes))).not.toContain('the database said no');
  });
});

describe('request ids in log lines', () => {
  it('every line logged while serving a request carries its id', async () => {
    const lines: Record<string, unknown>[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    const config = loadConfig({ PORT: '0', PARLEY_DATA_DIR: 'memory://', PARLEY_LOG_LEVEL: 'debug' });
    const app = await buildApp(config, { logger: createLogger('debug', sink) });
    const { url } = await app.start();
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-request-id': 'logged-request-1' },
        body: JSON.stringify({ query: '{ __typename }' }),
      });
      expect(response.status).toBe(200);
      const ofRequest = await eventually(() => {
        const found = lines.filter((line) => line.requestId === 'logged-request-1');
        return found.length > 0 && found;
      });
      expect(ofRequest.length).toBeGreaterThan(0);
      // Lines logged outside any request (the start) carry none.
      expect(lines.find((line) => line.msg === 'Parley is listening')?.requestId).toBeUndefined();
    } finally {
      await app.stop();
    }
  });
});
