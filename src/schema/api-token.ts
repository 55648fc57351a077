import type { ApiTokenInfo } from '../auth/tokens.ts';
import { builder } from './builder.ts';
import { COMMON_MUTATION_ERRORS } from './errors.ts';

const ApiTokenRef = builder.objectRef<ApiTokenInfo>('ApiToken').implement({
  description: 'One of the viewer’s API tokens. The token itself is shown only when it is created.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Pass to revokeApiToken (the CLI prints the same id).' }),
    label: t.exposeString('label'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    lastUsedAt: t.expose('lastUsedAt', {
      type: 'DateTime',
      nullable: true,
      description: 'Updated at most once a minute.',
    }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', nullable: true, description: 'Null: never expires.' }),
  }),
});

builder.prismaObjectField('User', 'apiTokens', (t) =>
  t.field({
    type: [ApiTokenRef],
    description: 'The viewer’s own API tokens (empty for any other user).',
    resolve: (user, _args, { services, viewer }) => (viewer?.id === user.id ? services.tokens.list(user.id) : []),
  }),
);

builder.mutationField('revokeApiToken', (t) =>
  t.withAuth({ authenticated: true }).field({
    type: ApiTokenRef,
    errors: { types: COMMON_MUTATION_ERRORS },
    description:
      'Revokes one of the viewer’s API tokens; every instance refuses it from the next request on. ' +
      'Revoking the token this request uses is allowed.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, { services, viewer }) => services.tokens.revoke(viewer.id, String(args.id)),
  }),
);
