import { loadConfig } from '../config.ts';
import { decodeId, encodeId } from '../schema/ids.ts';
import { printLine, type Command } from './command.ts';
import { withDirectory } from './directory.ts';

export const agentCommands: readonly Command[] = [
  {
    name: 'agent create',
    synopsis: 'agent create --project P --name N --model provider:model [--tools a,b] [--system-prompt S]',
    summary: "Create an agent in a project; prints the agent's id.",
    flags: { project: { required: true }, name: { required: true }, model: { required: true }, tools: {}, 'system-prompt': {} },
    run: (flags) =>
      withDirectory(loadConfig(process.env), async ({ directory }) => {
        const projectId = decodeId('project', flags.project, 'Project');
        const tools = flags.tools
          ?.split(',')
          .map((tool) => tool.trim())
          .filter((tool) => tool.length > 0);
        const agent = await directory.createAgent(null, projectId, {
          name: flags.name,
          model: flags.model,
          systemPrompt: flags['system-prompt'],
          tools,
        });
        printLine(encodeId('Agent', agent.id));
      }),
  },
];
