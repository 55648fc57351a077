import { afterEach, describe, expect, it } from 'vitest';
import { AppViewerDocument } from '../../packages/client/src/documents.ts';
import { watchQuery } from '../../packages/client/src/query.ts';
import { eventually } from '../support/server.ts';
import { scriptedRequest } from './scripted-server.ts';

// A plain read (behind useParleyQuery) against a scripted endpoint: the session's retry rules.

const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

const scripted = (answer: Parameters<typeof scriptedRequest>[0]) => scriptedRequest(answer, closers);

describe('a plain read', () => {
  const viewer = { viewer: { id: 'u', email: 'a@example.com', locale: 'en', projects: [] } };

  it('waits out an outage and reads again until answered', async () => {
    const { server, request } = await scripted((_request, index) =>
      index === 0 ? { status: 503, body: { errors: [{ message: 'Down.', extensions: { code: 'SERVICE_UNAVAILABLE', retryAfterS: 0.05 } }] } } : { body: { data: viewer } },
    );
    const read = watchQuery(request, AppViewerDocument, {});
    closers.push(read.close);
    const states: string[] = [];
    read.subscribe(() => {
      const { data, error, loading } = read.getSnapshot();
      states.push(`${loading ? 'loading' : 'done'} ${error?.code ?? ''} ${data ? 'data' : ''}`.trim());
    });
    await eventually(() => read.getSnapshot().data, 5_000, 'the read to be answered');
    expect(read.getSnapshot()).toEqual({ data: viewer, error: null, loading: false });
    expect(states).toEqual(['loading SERVICE_UNAVAILABLE', 'done  data']);
    expect(server.seen).toHaveLength(2);
  });

  it('stops at an error waiting cannot fix, and reads again when asked', async () => {
    let refuse = true;
    const { server, request } = await scripted(() =>
      refuse ? { body: { errors: [{ message: 'Who?', extensions: { code: 'UNAUTHENTICATED' } }] } } : { body: { data: viewer } },
    );
    const read = watchQuery(request, AppViewerDocument, {}, { reconnectDelayMs: 1 });
    closers.push(read.close);
    await eventually(() => !read.getSnapshot().loading, 5_000, 'the read to stop');
    expect(read.getSnapshot()).toMatchObject({ data: null, loading: false, error: { code: 'UNAUTHENTICATED' } });
    expect(server.seen).toHaveLength(1);
    refuse = false;
    expect(await read.refetch()).toEqual(viewer);
    expect(read.getSnapshot()).toEqual({ data: viewer, error: null, loading: false });
  });
});
