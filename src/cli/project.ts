import { loadConfig } from '../config.ts';
import { encodeId } from '../schema/ids.ts';
import { printLine, type Command } from './command.ts';
import { findUser, withDirectory } from './directory.ts';

export const projectCommands: readonly Command[] = [
  {
    name: 'project create',
    synopsis: 'project create --name N [--admin <email-or-user-id>]',
    summary: "Create a project (the given user becomes its admin); prints the project's id.",
    flags: { name: { required: true }, admin: {} },
    run: (flags) =>
      withDirectory(loadConfig(process.env), async ({ directory }) => {
        // The admin is looked up first so that an unknown user leaves no project behind.
        const admin = flags.admin === undefined ? null : await findUser(directory, 'admin', flags.admin);
        const project = await directory.createProject(admin, { name: flags.name });
        printLine(encodeId('Project', project.id));
      }),
  },
];
