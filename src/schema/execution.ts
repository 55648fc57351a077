import { ConflictError, InvalidInputError } from '../domain/errors.ts';
import { requireViewer } from './context.ts';
import { builder } from './builder.ts';
import { COMMON_MUTATION_ERRORS } from './errors.ts';
import { decodeId, encodeId } from './ids.ts';
import { MessageQueuedRef, SuspensionResolvedRef } from './run-events.ts';

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

const CancelRequested = builder.objectRef<{ cancelRequested: boolean; executionId: string }>('CancelRequested').implement({
  description: 'Stop was requested. The execution’s recorded status (ExecutionFinished) says when it has ended.',
  fields: (t) => ({
    cancelRequested: t.exposeBoolean('cancelRequested'),
    executionId: t.id({ resolve: (result) => encodeId('Execution', result.executionId) }),
  }),
});

builder.mutationField('cancelExecution', (t) =>
  t.field({
    type: CancelRequested,
    authScopes: { authenticated: true },
    errors: { types: [...COMMON_MUTATION_ERRORS, ConflictError] },
    description:
      'Stop. Cancels a running execution (on whichever instance runs it) or a suspended one; queued messages stay. ' +
      'An execution that already ended is a ConflictError, so a late Stop never touches a later execution.',
    args: { executionId: t.arg.id({ required: true }) },
    resolve: async (_root, args, context) => {
      const executionId = decodeId('executionId', String(args.executionId), 'Execution');
      const result = await context.parley.cancellation.cancel(requireViewer(context), executionId);
      return { ...result, executionId };
    },
  }),
);

const SuspensionDecision = builder.enumType('SuspensionDecision', { values: ['APPROVE', 'DENY'] as const });

builder.mutationField('resolveSuspension', (t) =>
  t.field({
    type: SuspensionResolvedRef,
    authScopes: { authenticated: true },
    errors: { types: [...COMMON_MUTATION_ERRORS, ConflictError] },
    description: 'Approves or denies an approval card, or answers a question card; the execution resumes.',
    args: {
      id: t.arg.id({ required: true }),
      decision: t.arg({ type: SuspensionDecision }),
      answer: t.arg.string(),
    },
    resolve: async (_root, args, context) => {
      if ((args.decision == null) === (args.answer == null)) {
        throw new InvalidInputError('decision', 'give exactly one of decision (an approval) or answer (a question).');
      }
      const event = await context.parley.suspensions.resolve(
        requireViewer(context),
        decodeId('id', String(args.id), 'Suspension'),
        args.decision != null ? { decision: args.decision } : { answer: args.answer! },
      );
      return { ...event, cursor: String(event.seq) } as never;
    },
  }),
);
