import { constants as osConstants } from 'node:os';
import { loadConfig, type Config } from '../config.ts';
import { printLine, type Command } from './command.ts';

export const serveCommand: Command = {
  name: 'serve',
  synopsis: 'serve',
  summary: 'Start the GraphQL server (the web chat at /, GraphiQL at /graphql).',
  flags: {},
  run: () => serve(loadConfig(process.env)),
};

async function serve(config: Config): Promise<number> {
  const [{ default: pino }, { buildApp }, { webAppBuilt }, { createLogger }] = await Promise.all([
    import('pino'),
    import('../server/app.ts'),
    import('../server/plugins/use-web-app.ts'),
    import('../observability/logging.ts'),
  ]);
  // stdout carries the banner for people; logs go to stderr.
  const logger = createLogger(config.PARLEY_LOG_LEVEL, pino.destination({ fd: 2 }));
  // The demo user, project and agent exist only where the demo model runs, and only embedded.
  const app = await buildApp(config, { bootstrapDemo: config.PARLEY_DEMO && !config.DATABASE_URL, logger });
  let url: string;
  try {
    ({ url } = await app.start());
  } catch (error) {
    await app.stop().catch(() => {});
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new Error(`port ${config.PORT} on ${config.HOST} is already in use; set PORT to another port (PORT=0 picks a free one).`);
    }
    throw error;
  }

  const chatUrl = new URL('/', url).href;
  const chatServed = config.PARLEY_WEB && webAppBuilt();
  const banner = ['Parley is running.'];
  if (config.PARLEY_WEB) banner.push(chatServed ? `  Chat:     ${chatUrl}` : '  Chat:     not built yet: run "npm run build:web" (npm install does it), then reload');
  banner.push(`  GraphiQL: ${url}`);
  if (app.demo) {
    const demo = app.demo;
    if (demo.token) {
      if (chatServed) banner.push(`Open the chat signed in as the demo user: ${chatUrl}#token=${demo.token}`);
      banner.push(
        `Demo API token: ${demo.token}`,
        `Demo agent id:  ${demo.agentGlobalId}`,
        `Try it in GraphiQL with the header {"Authorization": "Bearer ${demo.token}"}:`,
        `  1. mutation { createThread(agentId: "${demo.agentGlobalId}") { ... on Thread { id } } }`,
        `  2. subscription { runEvents(threadId: "<thread id>") { __typename ... on TextDelta { text } } }  (in a second tab)`,
        `  3. mutation { sendMessage(threadId: "<thread id>", text: "Hello") { __typename } }  (from a second browser window: switching tabs stops a running subscription)`,
      );
    } else {
      banner.push(
        `The demo token file ${config.PARLEY_DATA_DIR}/demo-token.txt is missing. Stop the server and run`,
        `"npx parley user create --email you@example.com" and "npx parley member add --project <id> --user you@example.com --role admin".`,
      );
    }
  }
  // The handlers are in place before the banner: whoever reads "Parley is running." may stop the
  // server at once, and a signal before them would kill it without a graceful stop.
  const stopped = new Promise<number>((resolve) => {
    let stopping = false;
    const onSignal = (signal: NodeJS.Signals) => {
      if (stopping) {
        // A second signal means the operator does not want to wait for running replies.
        process.exit(128 + (osConstants.signals[signal] ?? 1));
      }
      stopping = true;
      logger.info({ signal }, 'stopping: letting running replies finish (send the signal again to exit at once)');
      app.stop().then(
        () => resolve(0),
        (error: unknown) => {
          logger.error({ err: error }, 'graceful stop failed');
          resolve(1);
        },
      );
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
  printLine(banner.join('\n'));
  return stopped;
}
