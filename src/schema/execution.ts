import { ConflictError } from '../domain/errors.ts';
import type { RecordedFailure } from '../errors/recorded-failure.ts';
import { ExecutionStatus } from '../generated/prisma/enums.ts';
import { builder } from './builder.ts';
import { COMMON_MUTATION_ERRORS } from './errors.ts';
import { ExecutionErrorRef } from './failure.ts';
import { decodeIdArg, encodeId, encodeOptionalId } from './ids.ts';
import { MessageQueuedRef } from './run-events.ts';

builder.enumType(ExecutionStatus, { name: 'ExecutionStatus' });

builder.prismaNode('Execution', {
  id: { field: 'id' },
  findUnique: (id) => ({ id }),
  fields: (t) => ({
    status: t.expose('status', { type: ExecutionStatus }),
    thread: t.relation('thread'),
    parentExecutionId: t.id({
      nullable: true,
      resolve: (execution) => encodeOptionalId('Execution', execution.parentExecutionId),
    }),
    ownerInstanceId: t.exposeString('ownerInstanceId', { nullable: true }),
    acceptsSteering: t.exposeBoolean('acceptsSteering'),
    acceptedText: t.exposeString('acceptedText'),
    inputTokens: t.exposeInt('inputTokens'),
    outputTokens: t.exposeInt('outputTokens'),
    error: t.field({
      type: ExecutionErrorRef,
      nullable: true,
      resolve: (execution) => execution.error as RecordedFailure | null,
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    startedAt: t.expose('startedAt', { type: 'DateTime', nullable: true }),
    finishedAt: t.expose('finishedAt', { type: 'DateTime', nullable: true }),
  }),
});

builder.mutationField('retryExecution', (t) =>
  t.withAuth({ authenticated: true }).field({
    type: MessageQueuedRef,
    errors: { types: [...COMMON_MUTATION_ERRORS, ConflictError] },
    description:
      'Re-queues the input of a failed turn (a retryable failure, the thread’s latest turn) at the head of the queue.',
    args: { executionId: t.arg.id({ required: true }) },
    resolve: async (_root, args, { services, viewer }) => {
      const event = await services.queue.retryFailed(viewer, decodeIdArg(args, 'executionId', 'Execution'));
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
  t.withAuth({ authenticated: true }).field({
    type: CancelRequested,
    errors: { types: [...COMMON_MUTATION_ERRORS, ConflictError] },
    description:
      'Stop. Cancels a running execution (on whichever instance runs it) or a suspended one; queued messages stay. ' +
      'An execution that already ended is a ConflictError, so a late Stop never touches a later execution.',
    args: { executionId: t.arg.id({ required: true }) },
    resolve: async (_root, args, { services, viewer }) => {
      const executionId = decodeIdArg(args, 'executionId', 'Execution');
      const result = await services.cancellation.cancel(viewer, executionId);
      return { ...result, executionId };
    },
  }),
);
