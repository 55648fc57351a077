import { ConflictError, InvalidInputError } from '../domain/errors.ts';
import { builder } from './builder.ts';
import { COMMON_MUTATION_ERRORS } from './errors.ts';
import { decodeIdArg, encodeId } from './ids.ts';
import { SuspensionResolvedRef } from './run-events.ts';

builder.prismaNode('Suspension', {
  id: { field: 'id' },
  findUnique: (id) => ({ id }),
  fields: (t) => ({
    kind: t.exposeString('kind'),
    status: t.exposeString('status'),
    toolCallId: t.exposeString('toolCallId'),
    toolName: t.exposeString('toolName'),
    payload: t.field({ type: 'JSON', resolve: (suspension) => suspension.payload }),
    executionId: t.id({ resolve: (suspension) => encodeId('Execution', suspension.executionId) }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const SuspensionDecision = builder.enumType('SuspensionDecision', { values: ['APPROVE', 'DENY'] as const });

builder.mutationField('resolveSuspension', (t) =>
  t.withAuth({ authenticated: true }).field({
    type: SuspensionResolvedRef,
    errors: { types: [...COMMON_MUTATION_ERRORS, ConflictError] },
    description:
      'Approves or denies an approval card, answers a question card, or gives a frontend tool call (kind CLIENT_TOOL, an AG-UI client’s tool) its result as answer; the execution resumes.',
    args: {
      id: t.arg.id({ required: true }),
      decision: t.arg({ type: SuspensionDecision }),
      answer: t.arg.string(),
      allowInThread: t.arg.boolean({
        description: 'With APPROVE of a tool-server tool: stop asking for this tool in this thread.',
      }),
    },
    resolve: async (_root, args, { services, viewer }) => {
      if ((args.decision == null) === (args.answer == null)) {
        throw new InvalidInputError('decision', 'give exactly one of decision (an approval) or answer (a question).');
      }
      const event = await services.suspensions.resolve(
        viewer,
        decodeIdArg(args, 'id', 'Suspension'),
        args.decision != null ? { decision: args.decision, allowInThread: args.allowInThread ?? false } : { answer: args.answer! },
      );
      return { ...event, cursor: String(event.seq) } as never;
    },
  }),
);
