import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachBackend } from '../support/backends.ts';
import { SearchThreadsDocument } from '../support/documents.ts';
import { seedThread } from '../support/seeded-threads.ts';
import { addAgent, setUpAgent, type User } from '../support/scenario.ts';
import { request, requestData, startTestServer, type TestServer } from '../support/server.ts';
import { encodeId } from '../../src/schema/ids.ts';

describeEachBackend('searchThreads', (backend) => {
  let server: TestServer;
  let owner: User & { agentId: string; projectId: string };
  let other: User & { agentId: string };
  const threads: Record<string, { threadId: string; messageIds: string[] }> = {};

  const search = async (query: string, options: { first?: number; after?: string; agentId?: string } = {}, token = owner.token) =>
    (await requestData(server, SearchThreadsDocument, { query, ...options }, token)).searchThreads;
  const titlesOf = (results: Awaited<ReturnType<typeof search>>) => results.hits.map((hit) => hit.thread.title);

  beforeAll(async () => {
    server = await startTestServer({ backend });
    owner = await setUpAgent(server, { project: 'Search' });
    other = await setUpAgent(server, { project: 'Elsewhere' });
    const seed = (title: string, texts: string[], minutesAgo: number) =>
      seedThread(server, {
        ownerId: owner.userId,
        agentId: owner.agentId,
        title,
        lastActivityAt: new Date(Date.now() - minutesAgo * 60_000),
        messages: texts.map((text, index) => ({ role: index % 2 === 0 ? 'USER' : 'ASSISTANT', text })),
      });
    threads.titled = await seed('Quarterly budget review', ['Let us look at the numbers.', 'Sure.'], 30);
    threads.mentioned = await seed('Trip', ['We discussed the budget for the trip yesterday.', 'Noted.'], 1);
    threads.running = await seed('Sport', ['How was practice?', 'The runners were running fast along the river.'], 2);
    threads.german = await seed('Umzug', ['Die Häuser am See sind alt.', 'Ja, aber schön.'], 3);
    threads.prefix = await seed('Ops', ['Our Kubernetes cluster is down again.'], 4);
    threads.branched = await seedThread(server, {
      ownerId: owner.userId,
      agentId: owner.agentId,
      title: 'Animals',
      messages: [
        { role: 'USER', text: 'Name a striped animal' },
        { role: 'ASSISTANT', text: 'A zebra, of course.', parent: 0 },
        { role: 'ASSISTANT', text: 'A tiger, perhaps.', parent: 0 },
      ],
      leaf: 2,
    });
    threads.others = await seedThread(server, {
      ownerId: other.userId,
      agentId: other.agentId,
      title: 'Secret budget plans',
      messages: [{ role: 'USER', text: 'The budget is secret, also the Kubernetes cluster.' }],
    });
  });

  afterAll(async () => {
    await server?.stop();
  });

  it('finds a word in titles and messages, a title match first, with the best message and its words marked', async () => {
    const results = await search('budget');
    expect(titlesOf(results)).toEqual(['Quarterly budget review', 'Trip']);
    const [titled, mentioned] = results.hits;
    expect(titled!.titleMatched).toBe(true);
    expect(titled!.title.parts).toEqual([
      { text: 'Quarterly ', highlighted: false },
      { text: 'budget', highlighted: true },
      { text: ' review', highlighted: false },
    ]);
    expect(mentioned!.titleMatched).toBe(false);
    expect(mentioned!.messageId).toBe(encodeId('Message', threads.mentioned!.messageIds[0]!));
    expect(mentioned!.snippet!.text).toBe('We discussed the budget for the trip yesterday.');
    expect(mentioned!.snippet!.parts.filter((part) => part.highlighted).map((part) => part.text)).toEqual(['budget']);
  });

  it('finds other forms of an English word, German words by their stem, and the word being typed by its prefix', async () => {
    const running = await search('run');
    expect(titlesOf(running)).toEqual(['Sport']);
    // "running" by its stem, "runners" because "run" is also the prefix of the word being typed.
    expect(running.hits[0]!.snippet!.parts.filter((part) => part.highlighted).map((part) => part.text)).toEqual(['runners', 'running']);
    expect(titlesOf(await search('Haus'))).toEqual(['Umzug']);
    expect(titlesOf(await search('häuser see'))).toEqual(['Umzug']);
    expect(titlesOf(await search('kuber'))).toEqual(['Ops']);
    expect(titlesOf(await search('kubernetes clu'))).toEqual(['Ops']);
    // Only the last word is a prefix: "kuber" must be a whole word when another follows it.
    expect(titlesOf(await search('kuber cluster'))).toEqual([]);
  });

  it('stores and finds a reply longer than a tsvector could hold, by the words of its first 100,000 characters', async () => {
    const long = `Quixotic opening. ${'filler words here '.repeat(80_000)}`;
    await seedThread(server, { ownerId: owner.userId, agentId: owner.agentId, title: 'Long', messages: [{ role: 'ASSISTANT', text: long }] });
    const results = await search('quixotic');
    expect(titlesOf(results)).toEqual(['Long']);
    expect(results.hits[0]!.snippet!.text.length).toBeLessThan(300);
  });

  it('searches only the active branch', async () => {
    expect(titlesOf(await search('tiger'))).toEqual(['Animals']);
    expect(titlesOf(await search('zebra'))).toEqual([]);
  });

  it('never shows another user’s thread, and the other user sees only theirs', async () => {
    expect(titlesOf(await search('secret'))).toEqual([]);
    const theirs = await search('budget', {}, other.token);
    expect(titlesOf(theirs)).toEqual(['Secret budget plans']);
    const foreignAgent = await request(server, SearchThreadsDocument, { query: 'budget', agentId: encodeId('Agent', other.agentId) }, owner.token);
    expect(foreignAgent.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });

  it('narrows to one agent', async () => {
    const secondAgent = await addAgent(server, owner.projectId, { name: 'Second' });
    await seedThread(server, { ownerId: owner.userId, agentId: secondAgent, title: 'Budget of the second agent', messages: [] });
    expect(titlesOf(await search('budget'))).toHaveLength(3);
    expect(titlesOf(await search('budget', { agentId: encodeId('Agent', secondAgent) }))).toEqual(['Budget of the second agent']);
  });

  it('pages by cursor, each hit once', async () => {
    for (const minutes of [10, 11, 12]) {
      await seedThread(server, { ownerId: owner.userId, agentId: owner.agentId, title: `Paging ${minutes}`, messages: [], lastActivityAt: new Date(Date.now() - minutes * 60_000) });
    }
    const first = await search('paging', { first: 2 });
    expect(titlesOf(first)).toEqual(['Paging 10', 'Paging 11']);
    expect(first.hasNextPage).toBe(true);
    const second = await search('paging', { first: 2, after: first.endCursor! });
    expect(titlesOf(second)).toEqual(['Paging 12']);
    expect(second.hasNextPage).toBe(false);
  });

  it('refuses a query without a word, an oversized one, a bad page size or cursor, as BAD_USER_INPUT', async () => {
    for (const variables of [
      { query: '' },
      { query: '  ?! ' },
      { query: 'x'.repeat(900_000) },
      { query: 'budget', first: 0 },
      { query: 'budget', first: 51 },
      { query: 'budget', after: 'not-a-cursor' },
    ]) {
      const result = await request(server, SearchThreadsDocument, variables, owner.token);
      expect(result.errors?.[0]?.extensions?.code, JSON.stringify(variables).slice(0, 60)).toBe('BAD_USER_INPUT');
    }
    const anonymous = await request(server, SearchThreadsDocument, { query: 'budget' }, null);
    expect(anonymous.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });
});
