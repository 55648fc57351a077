import { NotFoundError } from '../domain/errors.ts';
import { MessageRole } from '../generated/prisma/enums.ts';
import type { ShareLinkView, SharedThreadView } from '../sharing/share-service.ts';
import type { SharedMessage } from '../sharing/snapshot.ts';
import { builder } from './builder.ts';
import { COMMON_MUTATION_ERRORS } from './errors.ts';
import { decodeIdArg, encodeId } from './ids.ts';
import { MessagePartUnion } from './message.ts';

// Share links (src/sharing/): a read-only snapshot of a thread behind an unguessable link, read
// without signing in. Nothing here reaches the thread, its owner or its agent: only the snapshot.

const ShareLinkRef = builder.objectRef<ShareLinkView>('ShareLink').implement({
  description: 'A read-only snapshot of a thread’s active path up to one message, readable by anyone with its url.',
  fields: (t) => ({
    id: t.id({ resolve: (link) => encodeId('ShareLink', link.id) }),
    url: t.string({
      nullable: true,
      description:
        'The page’s path on this server (`/share/<token>`), prefix it with the server’s origin. Only in shareThread’s answer: ' +
        'the token is stored hashed, so it cannot be shown again.',
      resolve: (link) => link.url,
    }),
    throughMessageId: t.id({ description: 'The last message of the snapshot.', resolve: (link) => encodeId('Message', link.throughMessageId) }),
    includeAttachments: t.exposeBoolean('includeAttachments', { description: 'Whether readers of the link may see and download its files.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const SharedMessageRef = builder.objectRef<SharedMessage>('SnapshotMessage').implement({
  description: 'A message of a shared snapshot, as it was when it was shared.',
  fields: (t) => ({
    role: t.field({ type: MessageRole, resolve: (message) => message.role }),
    parts: t.field({ type: [MessagePartUnion], resolve: (message) => message.parts }),
    createdAt: t.field({ type: 'DateTime', resolve: (message) => new Date(message.createdAt) }),
  }),
});

const SharedThreadRef = builder.objectRef<SharedThreadView>('ThreadSnapshot').implement({
  description: 'What a share link shows: the thread’s title, its agent’s name and its messages up to the shared one, nothing else.',
  fields: (t) => ({
    title: t.exposeString('title'),
    agentName: t.exposeString('agentName'),
    sharedAt: t.expose('sharedAt', { type: 'DateTime' }),
    messages: t.field({ type: [SharedMessageRef], resolve: (thread) => thread.messages }),
  }),
});

builder.queryField('sharedThread', (t) =>
  t.field({
    type: SharedThreadRef,
    errors: { types: [NotFoundError] },
    description:
      'The snapshot behind a share link, without signing in (rate-limited per client address like any anonymous query). ' +
      'An unknown, malformed or revoked token is one NotFoundError.',
    args: { token: t.arg.string({ required: true }) },
    resolve: (_root, args, { services }) => services.sharing.sharedThread(args.token),
  }),
);

builder.prismaObjectField('Thread', 'shareLinks', (t) =>
  t.field({
    type: [ShareLinkRef],
    description: 'The thread’s share links, newest first: its owner’s only (empty for anyone else).',
    resolve: (thread, _args, { services, viewer }) => (viewer ? services.sharing.linksOf(viewer, thread.id) : []),
  }),
);

builder.mutationField('shareThread', (t) =>
  t.withAuth({ authenticated: true }).field({
    type: ShareLinkRef,
    errors: { types: COMMON_MUTATION_ERRORS },
    description:
      'Its owner: a read-only snapshot of the thread’s active path up to `throughMessageId`, behind a link anyone may open ' +
      '(later messages, other threads, the owner’s email and files are not in it; files only with includeAttachments). ' +
      'Another user’s thread is not found; a message off the active path is an InvalidInputError.',
    args: {
      threadId: t.arg.id({ required: true }),
      throughMessageId: t.arg.id({ required: true }),
      includeAttachments: t.arg.boolean({ defaultValue: false }),
    },
    resolve: (_root, args, { services, viewer }) =>
      services.sharing.share(viewer, {
        threadId: decodeIdArg(args, 'threadId', 'Thread'),
        throughMessageId: decodeIdArg(args, 'throughMessageId', 'Message'),
        includeAttachments: args.includeAttachments ?? false,
      }),
  }),
);

const ShareLinkRevokedRef = builder.objectRef<{ shareLinkId: string }>('ShareLinkRevoked').implement({
  fields: (t) => ({ shareLinkId: t.id({ resolve: (revoked) => encodeId('ShareLink', revoked.shareLinkId) }) }),
});

builder.mutationField('revokeShareLink', (t) =>
  t.withAuth({ authenticated: true }).field({
    type: ShareLinkRevokedRef,
    errors: { types: COMMON_MUTATION_ERRORS },
    description: 'Its owner: the link stops working at once (its page and sharedThread answer not found).',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, args, { services, viewer }) => ({
      shareLinkId: await services.sharing.revoke(viewer, decodeIdArg(args, 'id', 'ShareLink')),
    }),
  }),
);
