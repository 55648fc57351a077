import type { User } from '../generated/prisma/client.ts';
import { ConflictError } from '../domain/errors.ts';
import type { Credential } from '../directory/user-admin.ts';
import { builder } from './builder.ts';
import type { AuthenticatedContext } from './context.ts';
import { COMMON_MUTATION_ERRORS } from './errors.ts';
import { decodeIdArg } from './ids.ts';
import { UserRef } from './viewer.ts';

// The admin API: what an operator's backend provisions through GraphQL instead of the CLI. Each
// mutation needs an admin credential; anyone else is told the user was not found (creating one:
// that it needs an admin credential), as for any user they cannot see.

const credentialOf = ({ viewer, admin }: AuthenticatedContext): Credential => ({ user: viewer, admin });

const CreatedUser = builder.objectRef<{ user: User; apiToken: string }>('CreatedUser').implement({
  description: 'A new user and its first API token (shown only here).',
  fields: (t) => ({
    user: t.field({ type: UserRef, resolve: (created) => created.user }),
    apiToken: t.exposeString('apiToken', { description: 'Hand it to the user (or keep it in the backend); only its hash is stored.' }),
  }),
});

builder.mutationField('createUser', (t) =>
  t.withAuth({ authenticated: true }).field({
    type: CreatedUser,
    errors: { types: [...COMMON_MUTATION_ERRORS, ConflictError] },
    description: 'Admin: creates a user (as `parley user create` does) with an API token. An email already taken is a ConflictError.',
    args: {
      email: t.arg.string({ required: true }),
      locale: t.arg.string(),
      name: t.arg.string(),
    },
    resolve: async (_root, args, context) => {
      const { user, token } = await context.services.users.createUser(credentialOf(context), args);
      return { user, apiToken: token };
    },
  }),
);

builder.mutationField('disableUser', (t) =>
  t.withAuth({ authenticated: true }).field({
    type: UserRef,
    errors: { types: COMMON_MUTATION_ERRORS },
    description:
      'Admin: refuses every API token and JWT of the user from now on, on every instance, and closes their open ' +
      'WebSockets (4403) and SSE subscriptions (UNAUTHENTICATED). Their data stays; enableUser lets them back in.',
    args: { userId: t.arg.id({ required: true }) },
    resolve: (_root, args, context) => context.services.users.disableUser(credentialOf(context), decodeIdArg(args, 'userId', 'User')),
  }),
);

builder.mutationField('enableUser', (t) =>
  t.withAuth({ authenticated: true }).field({
    type: UserRef,
    errors: { types: COMMON_MUTATION_ERRORS },
    description: 'Admin: lets a disabled user sign in again (their tokens that are not revoked or expired work again).',
    args: { userId: t.arg.id({ required: true }) },
    resolve: (_root, args, context) => context.services.users.enableUser(credentialOf(context), decodeIdArg(args, 'userId', 'User')),
  }),
);
