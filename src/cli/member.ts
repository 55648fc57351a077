import { loadConfig } from '../config.ts';
import { decodeId, encodeId } from '../schema/ids.ts';
import { printLine, type Command } from './command.ts';
import { findUser, withDirectory } from './directory.ts';

const ROLES = ['admin', 'member', 'viewer'] as const;

export const memberCommands: readonly Command[] = [
  {
    name: 'member add',
    synopsis: 'member add --project P --user U --role admin|member|viewer',
    summary: "Add a user (email or id) to a project, or change their role.",
    flags: { project: { required: true }, user: { required: true }, role: { required: true, choices: ROLES } },
    run: (flags) =>
      withDirectory(loadConfig(process.env), async ({ directory, db }) => {
        const projectId = decodeId('project', flags.project, 'Project');
        const user = await findUser(directory, 'user', flags.user);
        const role = flags.role.toLowerCase();
        await directory.addMember(null, { projectId, user: user.id, role });
        const project = await db.prisma.project.findUniqueOrThrow({ where: { id: projectId } });
        printLine(`${user.email ?? encodeId('User', user.id)} is now ${role} of project "${project.name}" (${encodeId('Project', project.id)}).`);
      }),
  },
];
