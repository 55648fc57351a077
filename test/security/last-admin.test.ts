import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachBackend } from '../support/backends.ts';
import { AddProjectMemberDocument, RemoveProjectMemberDocument } from '../support/documents.ts';
import { addMember, setUpAgent } from '../support/scenario.ts';
import { databaseState, requestData, startTestServer, type Backend, type TestServer } from '../support/server.ts';

describeEachBackend('a project always keeps an admin', (backend: Backend) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ backend });
  });

  afterAll(async () => {
    await server?.stop();
  });

  it('the only admin can neither demote nor remove themselves; nothing changes', async () => {
    const admin = await setUpAgent(server, { project: 'Solo' });
    const before = await databaseState(server);
    for (const role of ['MEMBER', 'VIEWER'] as const) {
      const demoted = await requestData(
        server,
        AddProjectMemberDocument,
        { projectId: admin.projectId, user: admin.userId, role },
        admin.token,
      );
      expect(demoted.addProjectMember).toMatchObject({
        __typename: 'ConflictError',
        code: 'CONFLICT',
        message: expect.stringContaining('last admin'),
      });
    }
    const left = await requestData(server, RemoveProjectMemberDocument, { projectId: admin.projectId, user: admin.userId }, admin.token);
    expect(left.removeProjectMember).toMatchObject({ __typename: 'ConflictError', message: expect.stringContaining('last admin') });
    expect(await databaseState(server)).toEqual(before);
  });

  it('an operator at the CLI cannot either', async () => {
    const admin = await setUpAgent(server, { project: 'Operator' });
    await expect(server.parley.services.directory.addMember(null, { projectId: admin.projectId, user: admin.userId, role: 'viewer' })).rejects.toThrow(
      /last admin/,
    );
    await expect(server.parley.services.directory.removeMember(null, { projectId: admin.projectId, user: admin.userId })).rejects.toThrow(/last admin/);
  });

  it('with a second admin, either may step down, but not both', async () => {
    const first = await setUpAgent(server, { project: 'Pair' });
    const second = await addMember(server, first.projectId, { role: 'admin' });
    const firstSteps = await requestData(
      server,
      AddProjectMemberDocument,
      { projectId: first.projectId, user: first.userId, role: 'MEMBER' },
      first.token,
    );
    expect(firstSteps.addProjectMember).toMatchObject({ __typename: 'Project', viewerRole: 'MEMBER' });
    const secondLeaves = await requestData(server, RemoveProjectMemberDocument, { projectId: first.projectId, user: second.userId }, second.token);
    expect(secondLeaves.removeProjectMember).toMatchObject({ __typename: 'ConflictError' });
    const roles = await server.parley.db.prisma.membership.findMany({ where: { projectId: first.projectId }, orderBy: { role: 'asc' } });
    expect(roles.map((membership) => [membership.userId, membership.role])).toEqual([
      [second.userId, 'ADMIN'],
      [first.userId, 'MEMBER'],
    ]);
  });

  it('two admins demoting each other at once leave one admin', async () => {
    const first = await setUpAgent(server, { project: 'Race' });
    const second = await addMember(server, first.projectId, { role: 'admin' });
    const results = await Promise.all([
      requestData(server, AddProjectMemberDocument, { projectId: first.projectId, user: second.userId, role: 'VIEWER' }, first.token),
      requestData(server, AddProjectMemberDocument, { projectId: first.projectId, user: first.userId, role: 'VIEWER' }, second.token),
    ]);
    // The second is refused: as the last admin's demotion (Conflict), or, if the first committed
    // before its role was checked, because it is no admin any more (Forbidden).
    const outcomes = results.map((result) => result.addProjectMember.__typename).sort();
    expect(outcomes[1]).toBe('Project');
    expect(['ConflictError', 'ForbiddenError']).toContain(outcomes[0]);
    expect(await server.parley.db.prisma.membership.count({ where: { projectId: first.projectId, role: 'ADMIN' } })).toBe(1);
  });

  it('a member may leave, and an admin may remove a member', async () => {
    const admin = await setUpAgent(server, { project: 'Leaving' });
    const member = await addMember(server, admin.projectId, { role: 'member' });
    const other = await addMember(server, admin.projectId, { role: 'viewer' });
    const left = await requestData(server, RemoveProjectMemberDocument, { projectId: admin.projectId, user: member.userId }, member.token);
    expect(left.removeProjectMember.__typename).toBe('Project');
    const removedByMember = await requestData(server, RemoveProjectMemberDocument, { projectId: admin.projectId, user: admin.userId }, other.token);
    expect(removedByMember.removeProjectMember.__typename).toBe('ForbiddenError');
    const removed = await requestData(server, RemoveProjectMemberDocument, { projectId: admin.projectId, user: other.userId }, admin.token);
    expect(removed.removeProjectMember.__typename).toBe('Project');
    expect(await server.parley.db.prisma.membership.count({ where: { projectId: admin.projectId } })).toBe(1);
  });
});
