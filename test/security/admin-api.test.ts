import { randomUUID } from 'node:crypto';
import { print } from 'graphql';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { issueApiToken } from '../../src/auth/tokens.ts';
import { decodeId, encodeId } from '../../src/schema/ids.ts';
import { describeEachBackend, describeWithServices } from '../support/backends.ts';
import {
  AddProjectMemberDocument,
  CreateProjectForDocument,
  CreateUserDocument,
  DisableUserDocument,
  EnableUserDocument,
  RunEventsDocument,
  SendMessageDocument,
  ViewerDocument,
} from '../support/documents.ts';
import { RawClient } from '../support/raw-websocket.ts';
import { newThread, setUpAgent } from '../support/scenario.ts';
import { databaseState, eventually, request, requestData, startTestServer, type Backend, type TestServer } from '../support/server.ts';
import { ENDED, executionRowsReaching } from '../support/waits.ts';

const ISSUER = 'https://id.example.test/';
const AUDIENCE = 'parley-api';
const SECRET = 'a shared secret of the tests, long enough for HS256';
const ADMIN_SCOPE = 'parley:admin';

/** The id `{ viewer }` answers for this token, or how it was refused. */
async function whoIs(server: { url: string }, token: string): Promise<string> {
  const result = await request(server, ViewerDocument, {}, token);
  return result.data?.viewer?.id ?? `refused: ${result.errors?.[0]?.extensions?.code}`;
}

async function adminToken(server: TestServer): Promise<{ userId: string; token: string }> {
  const { userId } = await server.createUser();
  const { token } = await issueApiToken(server.parley.db.prisma, userId, 'admin', { admin: true });
  return { userId, token };
}

function jwt(claims: Record<string, unknown>): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ iss: ISSUER, aud: AUDIENCE, exp: now + 3600, ...claims })
    .setProtectedHeader({ alg: 'HS256' })
    .sign(new TextEncoder().encode(SECRET));
}

/** Opens an SSE subscription to the thread's events; resolves with the stream's text once the server ends it. */
function sseSubscription(server: TestServer, token: string, threadId: string): Promise<string> {
  return fetch(server.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query: print(RunEventsDocument), variables: { threadId, after: null } }),
  }).then((response) => response.text());
}

describeEachBackend('the admin API', (backend: Backend) => {
  let server: TestServer;
  let admin: { userId: string; token: string };
  let ordinary: { userId: string; token: string };

  beforeAll(async () => {
    server = await startTestServer({
      backend,
      env: { PARLEY_AUTH_JWT_SECRET: SECRET, PARLEY_AUTH_ISSUER: ISSUER, PARLEY_AUTH_AUDIENCE: AUDIENCE, PARLEY_AUTH_ADMIN_SCOPE: ADMIN_SCOPE },
    });
    admin = await adminToken(server);
    ordinary = await server.createUser();
  });

  afterAll(async () => {
    await server?.stop();
  });

  it('creates a user with a working API token; a taken email is a ConflictError', async () => {
    const email = `made-${randomUUID().slice(0, 8)}@example.test`;
    const { createUser } = await requestData(server, CreateUserDocument, { email, locale: 'de', name: 'Made By API' }, admin.token);
    if (createUser.__typename !== 'CreatedUser') throw new Error(JSON.stringify(createUser));
    expect(createUser.user).toMatchObject({ email, locale: 'de', disabledAt: null });
    expect(await whoIs(server, createUser.apiToken)).toBe(createUser.user.id);
    const row = await server.parley.db.prisma.user.findFirstOrThrow({ where: { email } });
    expect(row.name).toBe('Made By API');

    const again = await requestData(server, CreateUserDocument, { email }, admin.token);
    expect(again.createUser).toMatchObject({ __typename: 'ConflictError', code: 'CONFLICT' });
  });

  it('refuses every admin mutation to an ordinary credential, with the usual answers, and changes nothing', async () => {
    const before = await databaseState(server);
    const created = await requestData(server, CreateUserDocument, { email: `nope-${randomUUID().slice(0, 8)}@example.test` }, ordinary.token);
    expect(created.createUser).toMatchObject({ __typename: 'ForbiddenError', code: 'FORBIDDEN' });
    expect((created.createUser as { message: string }).message).toContain('parley token create --admin');
    for (const target of [admin.userId, randomUUID()]) {
      const disabled = await requestData(server, DisableUserDocument, { userId: encodeId('User', target) }, ordinary.token);
      expect(disabled.disableUser, 'an existing user and an unknown one look alike').toMatchObject({ __typename: 'NotFoundError', code: 'NOT_FOUND' });
      const enabled = await requestData(server, EnableUserDocument, { userId: encodeId('User', target) }, ordinary.token);
      expect(enabled.enableUser).toMatchObject({ __typename: 'NotFoundError' });
      const project = await requestData(server, CreateProjectForDocument, { name: 'theirs', ownerId: encodeId('User', target) }, ordinary.token);
      expect(project.createProject).toMatchObject({ __typename: 'NotFoundError' });
    }
    expect(await databaseState(server)).toEqual(before);
    expect(await whoIs(server, admin.token)).toBe(encodeId('User', admin.userId));
  });

  it('makes a project for an owner, and adds members to a project the admin is not in', async () => {
    const owner = await server.createUser();
    const member = await server.createUser();
    const { createProject } = await requestData(server, CreateProjectForDocument, { name: 'Provisioned', ownerId: encodeId('User', owner.userId) }, admin.token);
    if (createProject.__typename !== 'Project') throw new Error(JSON.stringify(createProject));
    const projectId = Buffer.from(createProject.id, 'base64').toString('utf8').split(':')[1]!;
    const memberships = () => server.parley.db.prisma.membership.findMany({ where: { projectId }, select: { userId: true, role: true }, orderBy: { role: 'asc' } });
    expect(await memberships()).toEqual([{ userId: owner.userId, role: 'ADMIN' }]);

    const added = await requestData(server, AddProjectMemberDocument, { projectId: createProject.id, user: member.userId, role: 'MEMBER' }, admin.token);
    expect(added.addProjectMember.__typename).toBe('Project');
    expect(await memberships()).toEqual(expect.arrayContaining([{ userId: member.userId, role: 'MEMBER' }]));
    // An ordinary user who is not in the project is told it does not exist, as before.
    const refused = await requestData(server, AddProjectMemberDocument, { projectId: createProject.id, user: ordinary.userId, role: 'ADMIN' }, ordinary.token);
    expect(refused.addProjectMember).toMatchObject({ __typename: 'NotFoundError' });
  });

  it('disables a user at once (HTTP, WebSocket, SSE) and enables them again; an admin cannot disable themselves', async () => {
    const { userId, token, agentId } = await setUpAgent(server);
    const threadId = await newThread(server, token, agentId);
    expect(await whoIs(server, token)).toBe(encodeId('User', userId));
    const socket = new RawClient(server.wsUrl);
    expect(await socket.init({ authorization: `Bearer ${token}` })).toBe('acknowledged');
    socket.subscribe('events', threadId, null);
    const sse = sseSubscription(server, token, threadId);
    // The socket, its subscription and the SSE subscription.
    await eventually(() => server.parley.signedInStreams.count(userId) === 3, 15_000, 'the streams open');

    const { disableUser } = await requestData(server, DisableUserDocument, { userId: encodeId('User', userId) }, admin.token);
    expect(disableUser).toMatchObject({ __typename: 'User', disabledAt: expect.any(String) });
    expect(await whoIs(server, token), 'the cached lookup is forgotten at once').toBe('refused: UNAUTHENTICATED');
    expect(await eventually(() => socket.closed, 15_000, 'the socket closed')).toEqual({ code: 4403, reason: 'This user has been disabled' });
    expect(await sse).toContain('This user has been disabled: the subscription ended.');
    const reconnect = new RawClient(server.wsUrl);
    expect(await reconnect.init({ authorization: `Bearer ${token}` })).toMatchObject({ code: 4403 });

    const { enableUser } = await requestData(server, EnableUserDocument, { userId: encodeId('User', userId) }, admin.token);
    expect(enableUser).toMatchObject({ __typename: 'User', disabledAt: null });
    expect(await whoIs(server, token)).toBe(encodeId('User', userId));

    const self = await requestData(server, DisableUserDocument, { userId: encodeId('User', admin.userId) }, admin.token);
    expect(self.disableUser).toMatchObject({ __typename: 'InvalidInputError', field: 'userId' });
  });

  it('a turn the user queued before being disabled is refused, not run', async () => {
    const { userId, token, agentId } = await setUpAgent(server);
    const threadId = await newThread(server, token, agentId);
    const sendMessage = (text: string) => requestData(server, SendMessageDocument, { threadId, text }, token);
    expect((await sendMessage('/slow 2')).sendMessage.__typename).toBe('MessageQueued');
    expect((await sendMessage('after the disabling')).sendMessage.__typename).toBe('MessageQueued');
    const { disableUser } = await requestData(server, DisableUserDocument, { userId: encodeId('User', userId) }, admin.token);
    expect(disableUser.__typename).toBe('User');
    const prisma = server.parley.db.prisma;
    const [refused] = await executionRowsReaching(prisma, decodeId('threadId', threadId, 'Thread'), ENDED, {
      acceptedText: 'after the disabling',
      timeoutMs: 30_000,
    });
    expect(refused.status).toBe('REFUSED');
    expect(refused.refusalKey).toBe('refusal.user_disabled');
    expect(await prisma.queueItem.count({ where: { threadId: refused.threadId } })).toBe(0);
  });

  it('a JWT with the admin scope is an admin credential; one without it is not; a disabled JWT user is refused saying so', async () => {
    const withScope = await jwt({ sub: `ops-${randomUUID()}`, scope: `openid ${ADMIN_SCOPE}` });
    const withScpList = await jwt({ sub: `ops-${randomUUID()}`, scp: ['openid', ADMIN_SCOPE] });
    const without = await jwt({ sub: `user-${randomUUID()}`, scope: 'openid profile' });
    for (const token of [withScope, withScpList]) {
      const { createUser } = await requestData(server, CreateUserDocument, { email: `jwt-${randomUUID().slice(0, 8)}@example.test` }, token);
      expect(createUser.__typename).toBe('CreatedUser');
    }
    const { createUser } = await requestData(server, CreateUserDocument, { email: `jwt-${randomUUID().slice(0, 8)}@example.test` }, without);
    expect(createUser.__typename).toBe('ForbiddenError');

    const jwtUserId = await whoIs(server, without);
    const { disableUser } = await requestData(server, DisableUserDocument, { userId: jwtUserId }, withScope);
    expect(disableUser.__typename).toBe('User');
    const refused = await request(server, ViewerDocument, {}, without);
    expect(refused.errors?.[0]).toMatchObject({ message: 'The sign-in token was refused: its user has been disabled.', extensions: { code: 'UNAUTHENTICATED' } });
  });
});

describeWithServices('disabling a user reaches every instance', () => {
  let first: TestServer;
  let second: TestServer;

  beforeAll(async () => {
    first = await startTestServer({ backend: 'postgres' });
    second = await startTestServer({ backend: 'postgres', env: { DATABASE_URL: first.env.DATABASE_URL!, REDIS_URL: first.env.REDIS_URL! }, dropSchemaOnStop: false });
  });

  afterAll(async () => {
    await second?.stop();
    await first?.stop();
  });

  it('closes the disabled user’s open socket on the other instance, and that instance refuses their token at once', async () => {
    const admin = await adminToken(first);
    const { userId, token, agentId } = await setUpAgent(first);
    const threadId = await newThread(second, token, agentId);
    // The other instance has the token's lookup cached: it must forget it when told, not in 5 s.
    expect(await whoIs(second, token)).toBe(encodeId('User', userId));
    const socket = new RawClient(second.wsUrl);
    expect(await socket.init({ authorization: `Bearer ${token}` })).toBe('acknowledged');
    socket.subscribe('events', threadId, null);
    await eventually(() => second.parley.signedInStreams.count(userId) === 2, 15_000, 'the socket and its subscription open');

    const { disableUser } = await requestData(first, DisableUserDocument, { userId: encodeId('User', userId) }, admin.token);
    expect(disableUser.__typename).toBe('User');
    expect(await eventually(() => socket.closed, 15_000, 'the socket on the other instance closed')).toEqual({ code: 4403, reason: 'This user has been disabled' });
    expect(await whoIs(second, token)).toBe('refused: UNAUTHENTICATED');
  });
});
