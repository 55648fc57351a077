import { ForbiddenError, InvalidInputError, NotFoundError } from '../domain/errors.ts';
import type { PrismaClient, Project, User } from '../generated/prisma/client.ts';
import type { DirectoryService } from './directory-service.ts';

/** Who is asking: the user, and whether the credential is an admin one. */
export interface Credential {
  user: User;
  admin: boolean;
}

export const ADMIN_ONLY_MESSAGE =
  'This needs an admin credential: an API token made with `parley token create --admin`, or a JWT with the admin scope (PARLEY_AUTH_ADMIN_SCOPE).';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * What an operator's backend does through the API instead of the CLI: creating, disabling and
 * enabling users, and making projects for them. Anyone else is told the user does not exist (or,
 * for creating one, that it needs an admin credential), exactly as for an unknown user.
 */
export class UserAdministration {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly directory: DirectoryService,
    /** Tells every instance: a disabled user's cached lookups are forgotten and open streams closed; an enabled one's refusals forgotten. */
    private readonly announce: { disabled(userId: string): Promise<void>; enabled(userId: string): Promise<void> },
  ) {}

  /** A new user and an API token for it, shown once. */
  async createUser(credential: Credential, input: { email: string; locale?: string | null; name?: string | null }) {
    if (!credential.admin) throw new ForbiddenError('admin', ADMIN_ONLY_MESSAGE);
    const name = input.name?.trim() || null;
    if (name && name.length > 200) throw new InvalidInputError('name', 'must be at most 200 characters.');
    const { user, token } = await this.directory.createUser({ email: input.email, locale: input.locale ?? undefined });
    return { user: name ? await this.prisma.user.update({ where: { id: user.id }, data: { name } }) : user, token };
  }

  /** Refuses every token and JWT of the user from now on, on every instance, and closes their open streams. */
  async disableUser(credential: Credential, userId: string): Promise<User> {
    const user = await this.target(credential, userId);
    if (user.id === credential.user.id) throw new InvalidInputError('userId', 'an admin cannot disable their own user.');
    const disabled = user.disabledAt ? user : await this.prisma.user.update({ where: { id: user.id }, data: { disabledAt: new Date() } });
    await this.announce.disabled(user.id);
    return disabled;
  }

  async enableUser(credential: Credential, userId: string): Promise<User> {
    const user = await this.target(credential, userId);
    const enabled = user.disabledAt ? await this.prisma.user.update({ where: { id: user.id }, data: { disabledAt: null } }) : user;
    await this.announce.enabled(user.id);
    return enabled;
  }

  /** A project whose admin is `ownerId` (the admin credential's own user is not made a member). */
  async createProjectFor(credential: Credential, input: { name: string; ownerId: string }): Promise<Project> {
    const owner = await this.target(credential, input.ownerId);
    if (owner.disabledAt) throw new InvalidInputError('ownerId', 'this user is disabled.');
    return this.directory.createProject(owner, { name: input.name });
  }

  private async target(credential: Credential, userId: string): Promise<User> {
    const user = credential.admin && UUID.test(userId) ? await this.prisma.user.findUnique({ where: { id: userId.toLowerCase() } }) : null;
    if (!user) throw new NotFoundError('User', userId);
    return user;
  }
}
