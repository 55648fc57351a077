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
    requestedSchema: t.field({
      type: 'JSON',
      nullable: true,
      description: 'An ELICITATION card’s form: the flat JSON schema its tool server sent (null for other kinds).',
      resolve: (suspension) => (suspension.kind === 'ELICITATION' ? ((suspension.payload as { requestedSchema?: unknown }).requestedSchema ?? null) : null),
    }),
    executionId: t.id({ resolve: (suspension) => encodeId('Execution', suspension.executionId) }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const SuspensionDecision = builder.enumType('SuspensionDecision', { values: ['APPROVE', 'DENY'] as const });

const ElicitationAction = builder.enumType('ElicitationAction', {
  description: 'The user’s response to a tool server’s question (MCP elicitation): the filled form, a refusal, or a dismissal.',
  values: ['ACCEPT', 'DECLINE', 'CANCEL'] as const,
});

const ElicitationResponseInput = builder.inputType('ElicitationResponseInput', {
  fields: (t) => ({
    action: t.field({ type: ElicitationAction, required: true }),
    content: t.field({ type: 'JSON', description: 'With ACCEPT: the form’s fields by name, checked against the card’s requestedSchema.' }),
  }),
});

builder.mutationField('resolveSuspension', (t) =>
  t.withAuth({ authenticated: true }).field({
    type: SuspensionResolvedRef,
    errors: { types: [...COMMON_MUTATION_ERRORS, ConflictError] },
    description:
      'Approves or denies an approval card, answers a question card, or gives a frontend tool call (kind CLIENT_TOOL, an AG-UI client’s tool) its result as answer; the execution resumes. An ELICITATION card (a tool server asks during a call) takes `elicitation`, and the call goes on.',
    args: {
      id: t.arg.id({ required: true }),
      decision: t.arg({ type: SuspensionDecision }),
      answer: t.arg.string(),
      elicitation: t.arg({ type: ElicitationResponseInput }),
      allowInThread: t.arg.boolean({
        description: 'With APPROVE of a tool-server tool: stop asking for this tool in this thread.',
      }),
    },
    resolve: async (_root, args, { services, viewer }) => {
      const given = [args.decision, args.answer, args.elicitation].filter((arg) => arg != null).length;
      if (given !== 1) {
        throw new InvalidInputError('decision', 'give exactly one of decision (an approval), answer (a question) or elicitation (a tool server’s question).');
      }
      if (args.elicitation) {
        const { action, content } = args.elicitation;
        const event = await services.elicitations.answer(viewer, decodeIdArg(args, 'id', 'Suspension'), { action, content });
        return { ...event, cursor: String(event.seq) } as never;
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
