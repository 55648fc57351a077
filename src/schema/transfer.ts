import { LimitExceededError } from '../domain/errors.ts';
import type { ExportFile } from '../transfer/transfer-service.ts';
import { builder } from './builder.ts';
import { COMMON_MUTATION_ERRORS } from './errors.ts';
import { decodeIdArg } from './ids.ts';

// exportThread and importThread (src/transfer/): a thread's active path as a file, and a JSON
// export made a new thread. The JSON format is docs/thread-export.md.

const ExportFormatEnum = builder.enumType('ThreadExportFormat', {
  values: {
    JSON: { description: 'The versioned JSON of docs/thread-export.md, which importThread reads.' },
    MARKDOWN: { description: 'For people: the same messages and parts as Markdown.' },
  },
});

const ThreadExportRef = builder.objectRef<ExportFile>('ThreadExport').implement({
  description: 'A thread’s active path as a file: save `content` as `fileName` (e.g. a Blob with `mediaType`).',
  fields: (t) => ({
    fileName: t.exposeString('fileName'),
    mediaType: t.exposeString('mediaType'),
    content: t.exposeString('content'),
  }),
});

builder.queryField('exportThread', (t) =>
  t.withAuth({ authenticated: true }).field({
    type: ThreadExportRef,
    description:
      'The thread’s active path with every part (text, reasoning, tool calls with their results, error cards, attachments as links), ' +
      'as JSON (docs/thread-export.md) or Markdown. A thread the viewer may not read is NOT_FOUND, like an unknown one.',
    args: { threadId: t.arg.id({ required: true }), format: t.arg({ type: ExportFormatEnum, required: true }) },
    resolve: (_root, args, { services, viewer }) => services.transfer.exportThread(viewer, decodeIdArg(args, 'threadId', 'Thread'), args.format),
  }),
);

builder.mutationField('importThread', (t) =>
  t.withAuth({ authenticated: true }).prismaField({
    type: 'Thread',
    errors: { types: [...COMMON_MUTATION_ERRORS, LimitExceededError] },
    description:
      'A new thread of the viewer with the agent, holding the messages of a JSON export (exportThread) as finished history: nothing runs. ' +
      'Anything but a valid export of this version (docs/thread-export.md) is an InvalidInputError on `content`, and nothing is made.',
    args: { agentId: t.arg.id({ required: true }), content: t.arg.string({ required: true }) },
    resolve: async (query, _root, args, { services, loader, viewer }) => {
      const thread = await services.transfer.importThread(viewer, decodeIdArg(args, 'agentId', 'Agent'), args.content);
      return loader.thread.findUniqueOrThrow({ ...query, where: { id: thread.id } });
    },
  }),
);
