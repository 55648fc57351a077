import { loadConfig } from '../config.ts';
import { LOCALES } from '../i18n/catalog.ts';
import { printLine, type Command } from './command.ts';
import { withDirectory } from './directory.ts';

export const userCommands: readonly Command[] = [
  {
    name: 'user create',
    synopsis: 'user create --email E [--locale en|de]',
    summary: 'Create a user; prints its new API token and nothing else.',
    flags: { email: { required: true }, locale: { choices: LOCALES } },
    run: (flags) =>
      withDirectory(loadConfig(process.env), async ({ directory }) => {
        const { token } = await directory.createUser({ email: flags.email, locale: flags.locale?.toLowerCase() });
        printLine(token);
      }),
  },
];
