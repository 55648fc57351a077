import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueApiToken } from '../../src/auth/tokens.ts';
import { encodeId } from '../../src/schema/ids.ts';
// Every operation of the schema is called here: one namespace rather than a list of them all.
import * as documents from '../support/documents.ts';
import { expectTypename } from '../support/client.ts';
import { refusedSubscription } from '../support/follower.ts';
import { newThread } from '../support/scenario.ts';
import { databaseState, request, requestData, startTestServer, type GraphQLResponse, type TestServer } from '../support/server.ts';
import { settledConversation } from '../support/waits.ts';

// Bad input gets a clear error and changes nothing (docs/errors.md, "Errors of a request"). The limits are the defaults of
// src/config.ts (PARLEY_MAX_MESSAGE_CHARS 32,000, PARLEY_MAX_REQUEST_BYTES 1,000,000,
// PARLEY_MAX_QUERY_DEPTH 12) and of the directory (names 200, titles 500, system prompts 20,000).
const MAX_MESSAGE_CHARS = 32_000;
const MAX_REQUEST_BYTES = 1_000_000;
const MAX_QUERY_DEPTH = 12;

let server: TestServer;
let token: string;
let userId: string;
/** An admin credential (`parley token create --admin`), for the admin API's cases. */
let adminToken: string;
let adminUserId: string;
let projectId: string;
let agentId: string;
let threadId: string;
/** A pending item in a thread of its own that nothing kicks (the sweep is off), so it stays pending. */
let parkedQueueId: string;

/** A well-formed global id of the given type for a uuid nothing has. */
const unknownId = (type: Parameters<typeof encodeId>[0]) => encodeId(type, randomUUID());
/** The uuid inside a global id. */
const rawId = (globalId: string) => Buffer.from(globalId, 'base64').toString('utf8').split(':')[1]!;


interface ErrorMember {
  __typename: string;
  message?: string;
  code?: string;
  field?: string;
}

type Expected =
  | { typename: 'InvalidInputError'; field: string; mentions?: string[] }
  | { typename: 'NotFoundError'; mentions?: string[] };


interface Case {
  name: string;
  run: () => Promise<ErrorMember>;
  expected: Expected;
}

function invalid(field: string, ...mentions: string[]): Expected {
  return { typename: 'InvalidInputError', field, mentions };
}
function notFound(...mentions: string[]): Expected {
  return { typename: 'NotFoundError', mentions };
}

const createProject = (name: string) => async () =>
  (await requestData(server, documents.CreateProjectDocument, { name }, token)).createProject;
const addMember = (vars: { projectId?: string; user?: string; role?: 'ADMIN' | 'MEMBER' | 'VIEWER' }) => async () =>
  (
    await requestData(
      server,
      documents.AddProjectMemberDocument,
      { projectId: vars.projectId ?? projectId, user: vars.user ?? userId, role: vars.role ?? 'VIEWER' },
      token,
    )
  ).addProjectMember;
const removeMember = (vars: { projectId?: string; user?: string }) => async () =>
  (
    await requestData(
      server,
      documents.RemoveProjectMemberDocument,
      { projectId: vars.projectId ?? projectId, user: vars.user ?? userId },
      token,
    )
  ).removeProjectMember;
const createUser = (vars: { email?: string; locale?: string; name?: string }) => async () =>
  (await requestData(server, documents.CreateUserDocument, { email: vars.email ?? 'new@example.test', locale: vars.locale, name: vars.name }, adminToken))
    .createUser;
const disableUser = (userId: string) => async () => (await requestData(server, documents.DisableUserDocument, { userId }, adminToken)).disableUser;
const enableUser = (userId: string) => async () => (await requestData(server, documents.EnableUserDocument, { userId }, adminToken)).enableUser;
const setModelPrice = (vars: { model?: string; inputPerMillion?: string; outputPerMillion?: string; cachedInputPerMillion?: string }) => async () =>
  (
    await requestData(
      server,
      documents.SetModelPriceDocument,
      { model: 'demo:default', inputPerMillion: '1', outputPerMillion: '2', ...vars },
      adminToken,
    )
  ).setModelPrice;
const setBudget = (vars: { projectId?: string; agentId?: string; amount?: string; warnAtPercent?: number }) => async () =>
  (
    await requestData(
      server,
      documents.SetBudgetDocument,
      { projectId: vars.projectId ?? projectId, agentId: vars.agentId, perUser: true, period: 'DAY', amount: vars.amount ?? '5', warnAtPercent: vars.warnAtPercent },
      token,
    )
  ).setBudget;
const removeBudget = (budgetId: string) => async () => (await requestData(server, documents.RemoveBudgetDocument, { budgetId }, token)).removeBudget;
const revokeToken = (id: string) => async () =>
  (await requestData(server, documents.RevokeApiTokenDocument, { id }, token)).revokeApiToken;
type AgentVars = {
  name?: string;
  model?: string;
  systemPrompt?: string;
  tools?: string[];
  limits?: { maxConcurrentExecutions?: number | null; dailyTokenBudget?: number | null };
};
const createAgent = (vars: AgentVars & { projectId?: string }) => async () =>
  (
    await requestData(
      server,
      documents.CreateAgentDocument,
      { name: 'Agent', model: 'demo:default', ...vars, projectId: vars.projectId ?? projectId },
      token,
    )
  ).createAgent;
const updateAgent = (vars: AgentVars & { agentId?: string }) => async () =>
  (await requestData(server, documents.UpdateAgentDocument, { ...vars, agentId: vars.agentId ?? agentId }, token))
    .updateAgent;
const createThread = (vars: { agentId?: string; title?: string }) => async () =>
  (await requestData(server, documents.CreateThreadDocument, { ...vars, agentId: vars.agentId ?? agentId }, token))
    .createThread;
const sendMessage = (vars: { threadId?: string; text?: string; idempotencyKey?: string }) => async () =>
  (
    await requestData(
      server,
      documents.SendMessageDocument,
      { text: 'hello', ...vars, threadId: vars.threadId ?? threadId },
      token,
    )
  ).sendMessage;

const retryExecution = (executionId: string) => async () =>
  (await requestData(server, documents.RetryExecutionDocument, { executionId }, token)).retryExecution;

const cancelExecution = (executionId: string) => async () =>
  (await requestData(server, documents.CancelExecutionDocument, { executionId }, token)).cancelExecution;
const editMessage = (vars: { messageId?: string; text?: string; idempotencyKey?: string }) => async () =>
  (
    await requestData(
      server,
      documents.EditMessageDocument,
      { messageId: vars.messageId ?? unknownId('Message'), text: vars.text ?? 'edited', idempotencyKey: vars.idempotencyKey },
      token,
    )
  ).editMessage;
const regenerateMessage = (messageId: string) => async () =>
  (await requestData(server, documents.RegenerateMessageDocument, { messageId }, token)).regenerateMessage;
const compactThread = (threadId: string) => async () => (await requestData(server, documents.CompactThreadDocument, { threadId }, token)).compactThread;
const uncompactThread = (threadId: string) => async () => (await requestData(server, documents.UncompactThreadDocument, { threadId }, token)).uncompactThread;
const importThread = (vars: { agentId?: string; content?: string }) => async () =>
  (await requestData(server, documents.ImportThreadDocument, { agentId: vars.agentId ?? agentId, content: vars.content ?? '{}' }, token)).importThread;
const switchBranch = (messageId: string) => async () =>
  (await requestData(server, documents.SwitchBranchDocument, { messageId }, token)).switchBranch;
const renameThread = (vars: { threadId?: string; title?: string }) => async () =>
  (await requestData(server, documents.RenameThreadDocument, { threadId: vars.threadId ?? threadId, title: vars.title ?? 'renamed' }, token))
    .renameThread;
const deleteThread = (id: string) => async () => (await requestData(server, documents.DeleteThreadDocument, { threadId: id }, token)).deleteThread;
const editQueued = (vars: { queueId?: string; text?: string }) => async () =>
  (
    await requestData(
      server,
      documents.EditQueuedMessageDocument,
      { text: 'edited', ...vars, queueId: vars.queueId ?? parkedQueueId },
      token,
    )
  ).editQueuedMessage;
const removeQueued = (queueId: string) => async () =>
  (await requestData(server, documents.RemoveQueuedMessageDocument, { queueId }, token)).removeQueuedMessage;
const reorderQueued = (vars: { queueId?: string; targetQueueId?: string; expectedQueueIds?: string[] }) => async () =>
  (
    await requestData(
      server,
      documents.ReorderQueuedMessageDocument,
      {
        queueId: vars.queueId ?? parkedQueueId,
        targetQueueId: vars.targetQueueId ?? parkedQueueId,
        expectedQueueIds: vars.expectedQueueIds ?? [parkedQueueId],
      },
      token,
    )
  ).reorderQueuedMessage;
const resolveSuspension = (id: string) => async () =>
  (await requestData(server, documents.ResolveSuspensionDocument, { id, decision: 'APPROVE' }, token)).resolveSuspension;
const steerQueued = (vars: { queueId?: string; executionId?: string }) => async () =>
  (
    await requestData(
      server,
      documents.SteerQueuedMessageDocument,
      { queueId: vars.queueId ?? parkedQueueId, executionId: vars.executionId ?? unknownId('Execution') },
      token,
    )
  ).steerQueuedMessage;

const addToolServer = (vars: { projectId?: string; name?: string; url?: string; headers?: { name: string; value: string }[]; timeoutMs?: number }) => async () =>
  (
    await requestData(
      server,
      documents.AddToolServerDocument,
      { projectId: vars.projectId ?? projectId, name: vars.name ?? 'tools', url: vars.url ?? 'https://8.8.8.8/mcp', headers: vars.headers, timeoutMs: vars.timeoutMs },
      token,
    )
  ).addToolServer;
const toolServerById = (mutation: 'update' | 'remove' | 'refresh') => (toolServerId: string) => async () => {
  if (mutation === 'update') return (await requestData(server, documents.UpdateToolServerDocument, { toolServerId, name: 'renamed' }, token)).updateToolServer;
  if (mutation === 'remove') return (await requestData(server, documents.RemoveToolServerDocument, { toolServerId }, token)).removeToolServer;
  return (await requestData(server, documents.RefreshToolServerDocument, { toolServerId }, token)).refreshToolServer;
};

const shareThread = (vars: { threadId?: string; throughMessageId?: string }) => async () =>
  (
    await requestData(
      server,
      documents.ShareThreadDocument,
      { threadId: vars.threadId ?? threadId, throughMessageId: vars.throughMessageId ?? unknownId('Message') },
      token,
    )
  ).shareThread;
const revokeShareLink = (id: string) => async () => (await requestData(server, documents.RevokeShareLinkDocument, { id }, token)).revokeShareLink;

const long = (length: number) => 'x'.repeat(length);

/** The id arguments every mutation takes, each unknown, malformed, empty, and of the wrong type. */
function idCases(
  mutation: string,
  field: string,
  entity: string,
  run: (id: string) => () => Promise<ErrorMember>,
  wrongType: () => string,
): Case[] {
  return [
    { name: `${mutation}: ${field} unknown`, run: () => run(unknownId(entity as never))(), expected: notFound('not found') },
    {
      name: `${mutation}: ${field} an unknown raw uuid`,
      run: () => run(randomUUID())(),
      expected: notFound('not found'),
    },
    { name: `${mutation}: ${field} "nope"`, run: run('nope'), expected: invalid(field, 'nope') },
    { name: `${mutation}: ${field} ""`, run: run(''), expected: invalid(field) },
    {
      name: `${mutation}: ${field} a global id whose payload is no uuid`,
      run: () => run(Buffer.from(`${entity}:42`).toString('base64'))(),
      expected: invalid(field),
    },
    // Worded as for an unknown one of the expected kind (a QueueItem is a "Queued message").
    {
      name: `${mutation}: ${field} of the wrong type`,
      run: () => run(wrongType())(),
      expected: notFound(entity === 'QueueItem' ? 'Queued message' : entity),
    },
  ];
}

/** The fields createAgent and updateAgent both take, each rejected the same way by both. */
function agentInputCases(mutation: string, run: (vars: AgentVars) => () => Promise<ErrorMember>): Case[] {
  const limits = (field: string) => invalid(`limits.${field}`);
  const inputs: [string, AgentVars, Expected][] = [
    ['empty name', { name: '' }, invalid('name', 'empty')],
    ['name over 200 chars', { name: long(201) }, invalid('name', '200')],
    ['model "nope:x"', { model: 'nope:x' }, invalid('model', 'nope:x')],
    ['model "nocolon"', { model: 'nocolon' }, invalid('model', 'nocolon')],
    ['systemPrompt over 20,000 chars', { systemPrompt: long(20_001) }, invalid('systemPrompt', '20000')],
    ['unknown tool', { tools: ['nope'] }, invalid('tools', 'nope')],
    ['an unknown tool next to a known one', { tools: ['demo_crash', 'rm_rf'] }, invalid('tools', 'rm_rf')],
    ['limits.maxConcurrentExecutions 0', { limits: { maxConcurrentExecutions: 0 } }, limits('maxConcurrentExecutions')],
    ['limits.maxConcurrentExecutions negative', { limits: { maxConcurrentExecutions: -3 } }, limits('maxConcurrentExecutions')],
    ['limits.dailyTokenBudget 0', { limits: { dailyTokenBudget: 0 } }, limits('dailyTokenBudget')],
    ['limits.dailyTokenBudget negative', { limits: { dailyTokenBudget: -1 } }, limits('dailyTokenBudget')],
    [
      'limits.dailyTokenBudget negative next to a good maxConcurrentExecutions',
      { limits: { maxConcurrentExecutions: 2, dailyTokenBudget: -1000 } },
      limits('dailyTokenBudget'),
    ],
  ];
  return inputs.map(([name, vars, expected]) => ({ name: `${mutation}: ${name}`, run: run(vars), expected }));
}

const cases: Case[] = [
  // createProject(name)
  { name: 'createProject: empty name', run: createProject(''), expected: invalid('name', 'empty') },
  { name: 'createProject: blank name', run: createProject('   \n\t'), expected: invalid('name', 'empty') },
  { name: 'createProject: name over 200 chars', run: createProject(long(201)), expected: invalid('name', '200') },
  ...idCases('createProject', 'ownerId', 'User', (id) => async () =>
    (await requestData(server, documents.CreateProjectForDocument, { name: 'for someone', ownerId: id }, adminToken)).createProject, () => agentId),

  // addProjectMember(projectId, user, role)
  ...idCases('addProjectMember', 'projectId', 'Project', (id) => addMember({ projectId: id }), () => agentId),
  // An unknown email or id is not bad input: it answers as a known one does (test/security/no-oracle.test.ts).
  { name: 'addProjectMember: empty user', run: addMember({ user: '' }), expected: invalid('user') },
  { name: 'addProjectMember: neither an email nor an id', run: addMember({ user: 'somebody' }), expected: invalid('user') },

  // removeProjectMember(projectId, user)
  ...idCases('removeProjectMember', 'projectId', 'Project', (id) => removeMember({ projectId: id }), () => agentId),
  { name: 'removeProjectMember: unknown user email', run: removeMember({ user: 'nobody@example.test' }), expected: notFound('User') },

  // revokeApiToken(id)
  { name: 'revokeApiToken: id "nope"', run: revokeToken('nope'), expected: invalid('id', 'nope') },
  { name: 'revokeApiToken: an unknown id', run: () => revokeToken(randomUUID())(), expected: notFound('API token') },

  // createUser(email, locale, name), disableUser(userId), enableUser(userId): with an admin credential
  { name: 'createUser: empty email', run: createUser({ email: '' }), expected: invalid('email', 'empty') },
  { name: 'createUser: not an email', run: createUser({ email: 'somebody' }), expected: invalid('email') },
  { name: 'createUser: locale "fr"', run: createUser({ locale: 'fr' }), expected: invalid('locale') },
  { name: 'createUser: name over 200 chars', run: createUser({ name: long(201) }), expected: invalid('name', '200') },
  ...idCases('disableUser', 'userId', 'User', (id) => disableUser(id), () => agentId),
  { name: 'disableUser: the admin’s own user', run: () => disableUser(encodeId('User', adminUserId))(), expected: invalid('userId', 'own') },
  ...idCases('enableUser', 'userId', 'User', (id) => enableUser(id), () => agentId),

  // setBudget(projectId, agentId, perUser, period, amount, warnAtPercent), removeBudget(budgetId): a project admin's
  ...idCases('setBudget', 'projectId', 'Project', (id) => setBudget({ projectId: id }), () => agentId),
  ...idCases('setBudget', 'agentId', 'Agent', (id) => setBudget({ agentId: id }), () => projectId),
  { name: 'setBudget: a negative amount', run: setBudget({ amount: '-5' }), expected: invalid('amount', '-5') },
  { name: 'setBudget: an amount that is no number', run: setBudget({ amount: 'five' }), expected: invalid('amount', 'five') },
  { name: 'setBudget: a zero amount', run: setBudget({ amount: '0.00' }), expected: invalid('amount', 'more than 0') },
  { name: 'setBudget: thirteen digits after the point', run: setBudget({ amount: '0.0000000000001' }), expected: invalid('amount', '12') },
  { name: 'setBudget: an amount of 10,000 digits', run: setBudget({ amount: '9'.repeat(10_000) }), expected: invalid('amount') },
  { name: 'setBudget: a warning at 101 %', run: setBudget({ warnAtPercent: 101 }), expected: invalid('warnAtPercent', '100') },
  ...idCases('removeBudget', 'budgetId', 'Budget', (id) => removeBudget(id), () => agentId),

  // setModelPrice(model, inputPerMillion, outputPerMillion, cachedInputPerMillion, …), with an admin credential
  { name: 'setModelPrice: empty model', run: setModelPrice({ model: '' }), expected: invalid('model') },
  { name: 'setModelPrice: a provider not configured', run: setModelPrice({ model: 'nope:model' }), expected: invalid('model', 'not configured') },
  { name: 'setModelPrice: a negative price', run: setModelPrice({ inputPerMillion: '-1' }), expected: invalid('inputPerMillion', '-1') },
  { name: 'setModelPrice: a price that is no number', run: setModelPrice({ outputPerMillion: 'two' }), expected: invalid('outputPerMillion', 'two') },
  { name: 'setModelPrice: a float’s exponent', run: setModelPrice({ inputPerMillion: '1e-7' }), expected: invalid('inputPerMillion') },
  { name: 'setModelPrice: seven digits after the point', run: setModelPrice({ cachedInputPerMillion: '0.0000001' }), expected: invalid('cachedInputPerMillion', '6') },
  { name: 'setModelPrice: a price of 10,000 digits', run: setModelPrice({ inputPerMillion: '9'.repeat(10_000) }), expected: invalid('inputPerMillion') },

  // createAgent(projectId, name, model, systemPrompt, tools, limits)
  ...idCases('createAgent', 'projectId', 'Project', (id) => createAgent({ projectId: id }), () => threadId),
  ...agentInputCases('createAgent', createAgent),
  { name: 'createAgent: model ":x"', run: createAgent({ model: ':x' }), expected: invalid('model') },
  { name: 'createAgent: empty model', run: createAgent({ model: '' }), expected: invalid('model') },
  {
    name: 'createAgent: a provider without its API key',
    run: createAgent({ model: 'openai:gpt-4.1-mini' }),
    expected: invalid('model', 'OPENAI_API_KEY'),
  },

  // updateAgent(agentId, name, model, systemPrompt, tools, limits)
  ...idCases('updateAgent', 'agentId', 'Agent', (id) => updateAgent({ agentId: id, name: 'Renamed' }), () => projectId),
  ...agentInputCases('updateAgent', updateAgent),
  {
    // A valid change next to an invalid one: the valid one is not applied either.
    name: 'updateAgent: a good name with a bad model',
    run: updateAgent({ name: 'Half applied?', model: 'nope:x' }),
    expected: invalid('model'),
  },
  {
    name: 'updateAgent: a good system prompt with an unknown tool',
    run: updateAgent({ systemPrompt: 'Changed?', tools: ['nope'] }),
    expected: invalid('tools'),
  },

  // createThread(agentId, title)
  ...idCases('createThread', 'agentId', 'Agent', (id) => createThread({ agentId: id }), () => threadId),
  { name: 'createThread: title over 500 chars', run: createThread({ title: long(501) }), expected: invalid('title', '500') },

  // sendMessage(threadId, text, idempotencyKey)
  ...idCases('sendMessage', 'threadId', 'Thread', (id) => sendMessage({ threadId: id }), () => agentId),
  { name: 'sendMessage: empty text', run: sendMessage({ text: '' }), expected: invalid('text', 'empty') },
  { name: 'sendMessage: blank text', run: sendMessage({ text: ' \n \t ' }), expected: invalid('text', 'empty') },
  {
    name: `sendMessage: text over ${MAX_MESSAGE_CHARS} chars`,
    run: sendMessage({ text: long(MAX_MESSAGE_CHARS + 1) }),
    expected: invalid('text', String(MAX_MESSAGE_CHARS), String(MAX_MESSAGE_CHARS + 1)),
  },
  { name: 'sendMessage: empty idempotencyKey', run: sendMessage({ idempotencyKey: '' }), expected: invalid('idempotencyKey') },
  {
    name: 'sendMessage: idempotencyKey over 200 chars',
    run: sendMessage({ idempotencyKey: long(201) }),
    expected: invalid('idempotencyKey', '200'),
  },

  // retryExecution(executionId)
  ...idCases('retryExecution', 'executionId', 'Execution', (id) => retryExecution(id), () => threadId),

  // cancelExecution(executionId)
  ...idCases('cancelExecution', 'executionId', 'Execution', (id) => cancelExecution(id), () => threadId),

  // editQueuedMessage(queueId, text)
  ...idCases('editQueuedMessage', 'queueId', 'QueueItem', (id) => editQueued({ queueId: id }), () => threadId),
  { name: 'editQueuedMessage: empty text', run: editQueued({ text: '' }), expected: invalid('text', 'empty') },
  { name: 'editQueuedMessage: blank text', run: editQueued({ text: '  \n ' }), expected: invalid('text', 'empty') },
  {
    name: `editQueuedMessage: text over ${MAX_MESSAGE_CHARS} chars`,
    run: editQueued({ text: long(MAX_MESSAGE_CHARS + 1) }),
    expected: invalid('text', String(MAX_MESSAGE_CHARS)),
  },

  // removeQueuedMessage(queueId)
  ...idCases('removeQueuedMessage', 'queueId', 'QueueItem', (id) => removeQueued(id), () => threadId),

  // reorderQueuedMessage(queueId, targetQueueId, expectedQueueIds)
  ...idCases('reorderQueuedMessage', 'queueId', 'QueueItem', (id) => reorderQueued({ queueId: id }), () => agentId),
  {
    name: 'reorderQueuedMessage: targetQueueId "nope"',
    run: reorderQueued({ targetQueueId: 'nope' }),
    expected: invalid('targetQueueId', 'nope'),
  },
  { name: 'reorderQueuedMessage: targetQueueId ""', run: reorderQueued({ targetQueueId: '' }), expected: invalid('targetQueueId') },
  {
    name: 'reorderQueuedMessage: a malformed id in expectedQueueIds',
    run: () => reorderQueued({ expectedQueueIds: [parkedQueueId, 'nope'] })(),
    expected: invalid('expectedQueueIds', 'nope'),
  },

  // resolveSuspension(id, decision | answer)
  ...idCases('resolveSuspension', 'id', 'Suspension', (id) => resolveSuspension(id), () => threadId),

  // addToolServer(projectId, name, url, headers, timeoutMs)
  ...idCases('addToolServer', 'projectId', 'Project', (id) => addToolServer({ projectId: id }), () => agentId),
  { name: 'addToolServer: a name with a slash', run: addToolServer({ name: 'a/b' }), expected: invalid('name') },
  { name: 'addToolServer: an empty name', run: addToolServer({ name: '' }), expected: invalid('name') },
  { name: 'addToolServer: an ftp URL', run: addToolServer({ url: 'ftp://8.8.8.8/' }), expected: invalid('url', 'http://') },
  { name: 'addToolServer: a loopback URL (not allowed here)', run: addToolServer({ url: 'http://127.0.0.1:1/mcp' }), expected: invalid('url', 'PARLEY_TOOL_ALLOWED_HOSTS') },
  { name: 'addToolServer: a link-local URL', run: addToolServer({ url: 'http://169.254.169.254/' }), expected: invalid('url', '169.254.169.254') },
  { name: 'addToolServer: credentials in the URL', run: addToolServer({ url: 'https://u:p@8.8.8.8/' }), expected: invalid('url', 'credentials') },
  { name: 'addToolServer: timeoutMs 0', run: addToolServer({ timeoutMs: 0 }), expected: invalid('timeoutMs') },
  { name: 'addToolServer: a header name with a space', run: addToolServer({ headers: [{ name: 'X Key', value: 'v' }] }), expected: invalid('headers') },
  { name: 'addToolServer: a header value over two lines', run: addToolServer({ headers: [{ name: 'X-Key', value: 'a\nb' }] }), expected: invalid('headers', 'one line') },
  // updateToolServer, removeToolServer, refreshToolServer(toolServerId)
  ...idCases('updateToolServer', 'toolServerId', 'ToolServer', toolServerById('update'), () => threadId),
  ...idCases('removeToolServer', 'toolServerId', 'ToolServer', toolServerById('remove'), () => threadId),
  ...idCases('refreshToolServer', 'toolServerId', 'ToolServer', toolServerById('refresh'), () => threadId),

  // steerQueuedMessage(queueId, executionId)
  ...idCases('steerQueuedMessage', 'queueId', 'QueueItem', (id) => steerQueued({ queueId: id }), () => threadId),
  {
    name: 'steerQueuedMessage: executionId "nope"',
    run: steerQueued({ executionId: 'nope' }),
    expected: invalid('executionId', 'nope'),
  },
  {
    name: 'steerQueuedMessage: executionId ""',
    run: steerQueued({ executionId: '' }),
    expected: invalid('executionId'),
  },

  // editMessage(messageId, text, idempotencyKey), regenerateMessage(messageId), switchBranch(messageId)
  ...idCases('editMessage', 'messageId', 'Message', (id) => editMessage({ messageId: id }), () => threadId),
  { name: 'editMessage: blank text', run: editMessage({ text: ' \n ' }), expected: invalid('text', 'empty') },
  {
    name: `editMessage: text over ${MAX_MESSAGE_CHARS} chars`,
    run: editMessage({ text: long(MAX_MESSAGE_CHARS + 1) }),
    expected: invalid('text', String(MAX_MESSAGE_CHARS)),
  },
  { name: 'editMessage: empty idempotencyKey', run: editMessage({ idempotencyKey: '' }), expected: invalid('idempotencyKey') },
  ...idCases('regenerateMessage', 'messageId', 'Message', (id) => regenerateMessage(id), () => threadId),
  ...idCases('switchBranch', 'messageId', 'Message', (id) => switchBranch(id), () => threadId),

  // compactThread(threadId), uncompactThread(threadId): nothing to compact or undo is a ConflictError (test/compaction)
  ...idCases('compactThread', 'threadId', 'Thread', (id) => compactThread(id), () => agentId),
  ...idCases('uncompactThread', 'threadId', 'Thread', (id) => uncompactThread(id), () => agentId),

  // importThread(agentId, content): anything but a valid export of version 1 (test/api/thread-transfer.test.ts has more)
  ...idCases('importThread', 'agentId', 'Agent', (id) => importThread({ agentId: id }), () => threadId),
  { name: 'importThread: content not JSON', run: () => importThread({ content: '{ nope' })(), expected: invalid('content', 'not JSON') },
  { name: 'importThread: content of another version', run: () => importThread({ content: '{"format":"parley.thread","version":2}' })(), expected: invalid('content', 'version 2') },
  { name: 'importThread: content not an export', run: () => importThread({ content: '[1, 2]' })(), expected: invalid('content', 'not a Parley thread export') },
  {
    name: 'importThread: content an export without its messages',
    run: () => importThread({ content: '{"format":"parley.thread","version":1}' })(),
    expected: invalid('content', 'not a valid thread export'),
  },

  // renameThread(threadId, title), deleteThread(threadId)
  ...idCases('renameThread', 'threadId', 'Thread', (id) => renameThread({ threadId: id }), () => agentId),
  { name: 'renameThread: blank title', run: renameThread({ title: '  ' }), expected: invalid('title', 'empty') },
  { name: 'renameThread: title over 500 chars', run: renameThread({ title: long(501) }), expected: invalid('title', '500') },
  ...idCases('deleteThread', 'threadId', 'Thread', (id) => deleteThread(id), () => agentId),

  // shareThread(threadId, throughMessageId, includeAttachments), revokeShareLink(id): a message that is not on the
  // thread's active path (unknown, of another thread, off on a branch) is one InvalidInputError (test/api/share-links)
  ...idCases('shareThread', 'threadId', 'Thread', (id) => shareThread({ threadId: id }), () => agentId),
  { name: 'shareThread: throughMessageId not on the active path', run: shareThread({}), expected: invalid('throughMessageId', 'active path') },
  { name: 'shareThread: throughMessageId "nope"', run: shareThread({ throughMessageId: 'nope' }), expected: invalid('throughMessageId', 'nope') },
  { name: 'shareThread: throughMessageId of the wrong type', run: () => shareThread({ throughMessageId: agentId })(), expected: notFound('Message') },
  ...idCases('revokeShareLink', 'id', 'ShareLink', (id) => revokeShareLink(id), () => agentId),
];

beforeAll(async () => {
  // No periodic sweep: a queue item is only claimed when a send kicks its thread (the parked item never is).
  server = await startTestServer({ env: { PARLEY_CONSUMER_SWEEP_MS: '3600000' } });
  ({ token, userId } = await server.createUser());
  ({ userId: adminUserId } = await server.createUser());
  ({ token: adminToken } = await issueApiToken(server.parley.db.prisma, adminUserId, 'admin', { admin: true }));
  // Created through the API: the cases below need the global ids a client has.
  const { createProject } = await requestData(server, documents.CreateProjectDocument, { name: 'Inputs' }, token);
  projectId = expectTypename(createProject, 'Project').id;
  const { createAgent } = await requestData(
    server,
    documents.CreateAgentDocument,
    { projectId, name: 'Target', model: 'demo:default', systemPrompt: 'Original prompt.', tools: [] },
    token,
  );
  agentId = expectTypename(createAgent, 'Agent').id;
  threadId = await newThread(server, token, agentId, 'inputs');
  const parked = await newThread(server, token, agentId, 'parked');
  const item = await server.parley.db.prisma.queueItem.create({
    data: { threadId: rawId(parked), userId, text: 'parked message', position: 1 },
  });
  parkedQueueId = encodeId('QueueItem', item.id);
});

afterAll(async () => {
  await server?.stop();
});

describe('every mutation rejects bad input with a typed error and changes nothing', () => {
  it('covers every mutation of the schema', async () => {
    const mutations = documents.schemaMutations();
    const covered = [...new Set(cases.map((entry) => entry.name.split(':')[0]!))].sort();
    expect(covered, 'a mutation has no bad-input cases: add them to `cases`').toEqual(mutations);
  });

  it.each(cases)('$name', async ({ run, expected }) => {
    const before = await databaseState(server);

    const result = await run();

    expect(result.__typename, JSON.stringify(result)).toBe(expected.typename);
    if (expected.typename === 'InvalidInputError') {
      expect(result.code).toBe('BAD_USER_INPUT');
      expect(result.field).toBe(expected.field);
      expect(result.message).toMatch(new RegExp(`^${expected.field.replace('.', '\\.')}: `));
    } else {
      expect(result.code).toBe('NOT_FOUND');
    }
    for (const mention of expected.mentions ?? []) expect(result.message).toContain(mention);
    // A clear message, not an echo of a huge input.
    expect(result.message!.length).toBeLessThan(600);

    expect(await databaseState(server)).toEqual(before);
  });
});

describe('queries reject bad ids', () => {
  it('a malformed id is BAD_USER_INPUT, an unknown or wrongly typed one NOT_FOUND', async () => {
    const queries = [
      (id: string) => request(server, documents.ThreadDocument, { id }, token),
      (id: string) => request(server, documents.ConversationDocument, { threadId: id }, token),
      (id: string) => request(server, documents.QueueDocument, { threadId: id }, token),
      (id: string) => request(server, documents.NodeDocument, { id }, token),
      (id: string) => request(server, documents.AgentDocument, { id }, token),
      (id: string) => request(server, documents.ProjectDocument, { id }, token),
      (id: string) => request(server, documents.ExportThreadDocument, { threadId: id, format: 'JSON' }, token),
      (id: string) => request(server, documents.SearchThreadsDocument, { query: 'hello', agentId: id }, token),
    ];
    for (const query of queries) {
      for (const id of ['nope', '']) {
        const result = await query(id);
        expect(result.errors?.map((error) => error.extensions?.code), JSON.stringify(result)).toEqual(['BAD_USER_INPUT']);
        expect(result.errors![0]!.message).toContain('id');
      }
      const unknown = await query(unknownId('Thread'));
      expect(unknown.errors?.map((error) => error.extensions?.code), JSON.stringify(unknown)).toEqual(['NOT_FOUND']);
    }
  });
});

describe('idempotent sendMessage', () => {
  it('the same idempotencyKey twice gives the same queueId, one queue item and one MessageQueued event', async () => {
    const prisma = server.parley.db.prisma;
    const key = `retry-${randomUUID()}`;
    const first = await sendMessage({ text: 'only once', idempotencyKey: key })();
    const second = await sendMessage({ text: 'only once', idempotencyKey: key })();
    if (first.__typename !== 'MessageQueued' || second.__typename !== 'MessageQueued') {
      throw new Error(JSON.stringify({ first, second }));
    }
    expect(second).toEqual(first);

    // Concurrent retries of another send also collapse into one.
    const otherKey = `race-${randomUUID()}`;
    const raced = await Promise.all(
      Array.from({ length: 4 }, () => sendMessage({ text: 'raced', idempotencyKey: otherKey })()),
    );
    const racedIds = new Set(raced.map((result) => (result as { queueId?: string }).queueId));
    expect(raced.map((result) => result.__typename)).toEqual(Array(4).fill('MessageQueued'));
    expect(racedIds.size).toBe(1);
    expect(racedIds.has(first.queueId)).toBe(false);

    // Both items run once; then nothing is pending and the log holds one MessageQueued per key.
    const thread = rawId(threadId);
    await expectSettledWithTurns(2);
    expect(await prisma.execution.count({ where: { threadId: thread, status: 'COMPLETED' } })).toBe(2);
    const queued = await prisma.threadEvent.findMany({ where: { threadId: thread, type: 'MessageQueued' } });
    // Stored namespaced as the client's key (`client:<key>`), apart from the server's own retry keys.
    const keys = queued.map((event) => (event.payload as { idempotencyKey?: string }).idempotencyKey);
    expect(keys.filter((k) => k === `client:${key}`)).toHaveLength(1);
    expect(keys.filter((k) => k === `client:${otherKey}`)).toHaveLength(1);
    expect(await prisma.execution.count({ where: { threadId: thread } })).toBe(2);
    const userMessages = await prisma.message.findMany({ where: { threadId: thread, role: 'USER' } });
    expect(userMessages).toHaveLength(2);

    // A retry after the item already ran still answers with the first send and queues nothing.
    const before = await databaseState(server);
    const late = await sendMessage({ text: 'only once', idempotencyKey: key })();
    expect(late).toEqual(first);
    expect(await databaseState(server)).toEqual(before);
  });
});

/** Waits for the inputs thread to settle, and expects `executions` turns on it, each ended (its ExecutionFinished recorded). */
async function expectSettledWithTurns(executions: number) {
  await settledConversation(server, token, threadId);
  const prisma = server.parley.db.prisma;
  const thread = rawId(threadId);
  expect(await prisma.execution.count({ where: { threadId: thread, parentExecutionId: null } })).toBe(executions);
  expect(await prisma.threadEvent.count({ where: { threadId: thread, type: 'ExecutionFinished' } })).toBe(executions);
}

describe('retryExecution of a turn that did not fail', () => {
  it('is a ConflictError and queues nothing', async () => {
    const thread = rawId(threadId);
    await expectSettledWithTurns(2);
    const execution = await server.parley.db.prisma.execution.findFirstOrThrow({
      where: { threadId: thread, status: 'COMPLETED' },
      orderBy: { createdAt: 'desc' },
    });
    const before = await databaseState(server);
    const result = await retryExecution(encodeId('Execution', execution.id))();
    expect(result).toMatchObject({
      __typename: 'ConflictError',
      code: 'CONFLICT',
      message: expect.stringContaining('COMPLETED'),
    });
    expect(await databaseState(server)).toEqual(before);
  });

  it('is a ConflictError even after a message was sent with an idempotencyKey that looks like its retry key', async () => {
    // retryExecution records its re-queued item under the idempotency key `retry:<executionId>`, in the
    // same namespace as the keys clients pass to sendMessage: a client key must not stand in for a retry.
    const thread = rawId(threadId);
    await expectSettledWithTurns(2);
    const execution = await server.parley.db.prisma.execution.findFirstOrThrow({
      where: { threadId: thread, status: 'COMPLETED' },
      orderBy: { createdAt: 'desc' },
    });
    const sent = await sendMessage({ text: 'an ordinary message', idempotencyKey: `retry:${execution.id}` })();
    expect(sent.__typename).toBe('MessageQueued');
    await expectSettledWithTurns(3);

    const before = await databaseState(server);
    const result = await retryExecution(encodeId('Execution', execution.id))();
    expect(result, 'retryExecution answered with the client’s own message').toMatchObject({
      __typename: 'ConflictError',
      code: 'CONFLICT',
    });
    expect(await databaseState(server)).toEqual(before);
  });
});

describe('transport limits', () => {
  it(`a request body over ${MAX_REQUEST_BYTES} bytes gets 413 and changes nothing`, async () => {
    const before = await databaseState(server);
    const body = JSON.stringify({
      query: 'mutation ($threadId: ID!, $text: String!) { sendMessage(threadId: $threadId, text: $text) { __typename } }',
      variables: { threadId, text: long(MAX_REQUEST_BYTES + 1) },
    });
    const response = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body,
    });
    expect(response.status).toBe(413);
    const payload = (await response.json()) as GraphQLResponse<unknown>;
    expect(payload.errors?.[0]?.message).toContain(String(MAX_REQUEST_BYTES));
    expect(await databaseState(server)).toEqual(before);
  });

  function nestedQuery(depth: number): string {
    // __type(name:) { ofType { ofType { … { name } } } }: `depth` levels of fields, each one object (a
    // chain of lists, such as viewer { projects { agents { project { agents … } } } }, would be
    // refused for its cost first).
    return `{ __type(name: "Agent") { ${'ofType { '.repeat(depth - 2)}name${' }'.repeat(depth - 1)} }`;
  }

  async function post(query: string) {
    const response = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query }),
    });
    return (await response.json()) as GraphQLResponse<unknown>;
  }

  it(`a query deeper than ${MAX_QUERY_DEPTH} levels gets BAD_USER_INPUT; ${MAX_QUERY_DEPTH} levels are fine`, async () => {
    const allowed = await post(nestedQuery(MAX_QUERY_DEPTH));
    expect(allowed.errors, JSON.stringify(allowed)).toBeUndefined();
    expect(allowed.data).toBeTruthy();

    const tooDeep = await post(nestedQuery(MAX_QUERY_DEPTH + 1));
    expect(tooDeep.errors?.map((error) => error.extensions?.code), JSON.stringify(tooDeep)).toEqual(['BAD_USER_INPUT']);
    expect(tooDeep.errors![0]!.message).toContain(String(MAX_QUERY_DEPTH));
    expect(tooDeep.data ?? null).toBeNull();

    // Hiding the depth in fragments does not help.
    const viaFragments = await post(`
      { viewer { ...A } }
      fragment A on User { projects { agents { ...B } } }
      fragment B on Agent { project { agents { project { agents { ...C } } } } }
      fragment C on Agent { project { agents { project { agents { project { id } } } } } }
    `);
    expect(viaFragments.errors?.map((error) => error.extensions?.code), JSON.stringify(viaFragments)).toEqual([
      'BAD_USER_INPUT',
    ]);
  });

  it('runEvents(after: "garbage") gets BAD_USER_INPUT', async () => {
    for (const after of ['garbage', '', '-1', '1.2.3']) {
      const errors = await refusedSubscription(server, token, threadId, after);
      expect(errors.map((error) => error.extensions?.code), `after: ${JSON.stringify(after)}`).toEqual(['BAD_USER_INPUT']);
      expect(errors[0]!.message).toContain('after');
    }
  });
});
