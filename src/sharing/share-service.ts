import { createHash, randomBytes } from 'node:crypto';
import type { AccessPolicy } from '../auth/access.ts';
import { pathTo } from '../conversation/active-path.ts';
import type { MessagePart } from '../conversation/parts.ts';
import { InvalidInputError, NotFoundError } from '../domain/errors.ts';
import type { PrismaClient, User } from '../generated/prisma/client.ts';
import { attachmentIdsOf, snapshotParts, withSharedDownloads, type SharedMessage } from './snapshot.ts';

/** Where the web chat shows a shared snapshot; its token is the last segment. */
export const SHARE_PATH = '/share/';

/** A link as its owner lists it; `url` only when it was just made (the token is stored hashed). */
export interface ShareLinkView {
  id: string;
  threadId: string;
  throughMessageId: string;
  includeAttachments: boolean;
  createdAt: Date;
  url: string | null;
}

/** What anyone with the link reads: the snapshot, and nothing of the thread, its owner or its agent beyond it. */
export interface SharedThreadView {
  title: string;
  agentName: string;
  sharedAt: Date;
  messages: SharedMessage[];
}

export interface ShareInput {
  threadId: string;
  throughMessageId: string;
  includeAttachments: boolean;
}

// 256 bits from the system's CSPRNG: a link is guessed no sooner than a key.
const TOKEN_BYTES = 32;
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

/** Every unknown, malformed or revoked token gets this one answer. */
const unknownShare = () => new NotFoundError('Shared thread');

/**
 * Share links: a thread's owner snapshots its active path up to one message behind an unguessable
 * link, lists and revokes the links; anyone holding a link reads its snapshot (and, if the owner
 * chose so, its files) without signing in.
 */
export class ShareService {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly access: Pick<AccessPolicy, 'thread'>,
  ) {}

  async share(viewer: User, input: ShareInput): Promise<ShareLinkView> {
    const thread = await this.ownThread(viewer, input.threadId);
    const path = await pathTo(this.prisma, thread.activeLeafMessageId);
    const through = path.indexOf(input.throughMessageId);
    if (through < 0) throw new InvalidInputError('throughMessageId', 'is not a message on the thread’s active path.');
    const rows = await this.prisma.message.findMany({
      where: { id: { in: path.slice(0, through + 1) } },
      orderBy: { seq: 'asc' },
      select: { role: true, parts: true, createdAt: true },
    });
    const snapshot: SharedMessage[] = rows.map((row) => ({
      role: row.role,
      createdAt: row.createdAt.toISOString(),
      parts: snapshotParts(row.parts as unknown as MessagePart[], input.includeAttachments),
    }));
    const token = randomBytes(TOKEN_BYTES).toString('base64url');
    const link = await this.prisma.shareLink.create({
      data: {
        threadId: thread.id,
        ownerId: viewer.id,
        tokenHash: hashOf(token),
        throughMessageId: input.throughMessageId,
        includeAttachments: input.includeAttachments,
        title: thread.title,
        agentName: thread.agent.name,
        snapshot: snapshot as never,
      },
    });
    return { ...viewOf(link), url: `${SHARE_PATH}${token}` };
  }

  /** The thread's links, newest first: its owner's only (anyone else sees none). */
  async linksOf(viewer: User, threadId: string): Promise<ShareLinkView[]> {
    const links = await this.prisma.shareLink.findMany({ where: { threadId, ownerId: viewer.id }, orderBy: { createdAt: 'desc' } });
    return links.map(viewOf);
  }

  /** Deletes the link: its token is then as unknown as one never made. Another user's link is not found. */
  async revoke(viewer: User, shareLinkId: string): Promise<string> {
    const { count } = await this.prisma.shareLink.deleteMany({ where: { id: shareLinkId, ownerId: viewer.id } });
    if (count === 0) throw new NotFoundError('ShareLink', shareLinkId);
    return shareLinkId;
  }

  async sharedThread(token: string): Promise<SharedThreadView> {
    const link = await this.linkOf(token);
    const sharePath = `${SHARE_PATH}${token}`;
    const messages = (link.snapshot as unknown as SharedMessage[]).map((message) => ({
      ...message,
      parts: withSharedDownloads(message.parts, sharePath),
    }));
    return { title: link.title, agentName: link.agentName, sharedAt: link.createdAt, messages };
  }

  /** A file of the snapshot, when the owner included files; anything else is the same not-found. */
  async sharedAttachment(token: string, attachmentId: string): Promise<{ filename: string; mediaType: string; data: Buffer }> {
    const link = await this.linkOf(token);
    const named = link.includeAttachments && attachmentIdsOf(link.snapshot as unknown as SharedMessage[]).has(attachmentId);
    const file = named ? await this.prisma.attachment.findUnique({ where: { id: attachmentId } }) : null;
    if (!file) throw new NotFoundError('Attachment');
    return { filename: file.filename, mediaType: file.mediaType, data: Buffer.from(file.dataBase64, 'base64') };
  }

  private async linkOf(token: string) {
    if (!TOKEN_SHAPE.test(token)) throw unknownShare();
    const link = await this.prisma.shareLink.findUnique({ where: { tokenHash: hashOf(token) } });
    if (!link) throw unknownShare();
    return link;
  }

  /** The viewer's own thread: another user's, visible or not, is answered as one that does not exist. */
  private async ownThread(viewer: User, threadId: string) {
    const thread = await this.access.thread(viewer, threadId, 'agent:read');
    if (thread.ownerId !== viewer.id) throw new NotFoundError('Thread', threadId);
    return thread;
  }
}

function viewOf(link: { id: string; threadId: string; throughMessageId: string; includeAttachments: boolean; createdAt: Date }): ShareLinkView {
  const { id, threadId, throughMessageId, includeAttachments, createdAt } = link;
  return { id, threadId, throughMessageId, includeAttachments, createdAt, url: null };
}
