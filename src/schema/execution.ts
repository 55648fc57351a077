import { ConflictError } from '../domain/errors.ts';
import { requireViewer } from './context.ts';
import { builder } from './builder.ts';
import { COMMON_MUTATION_ERRORS } from './errors.ts';
import { decodeId } from './ids.ts';
import { MessageQueuedRef } from './run-events.ts';

builder.mutationField('retryExecution', (t) =>
  t.field({
    type: MessageQueuedRef,
    authScopes: { authenticated: true },
    errors: { types: [...COMMON_MUTATION_ERRORS, ConflictError] },
    description:
      'Re-queues the input of a failed turn (a retryable failure, the thread’s latest turn) at the head of the queue.',
    args: { executionId: t.arg.id({ required: true }) },
    resolve: async (_root, args, context) => {
      const event = await context.parley.queue.retryFailed(
        requireViewer(context),
        decodeId('executionId', String(args.executionId), 'Execution'),
      );
      return { ...event, cursor: String(event.seq) } as never;
    },
  }),
);
