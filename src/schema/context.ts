import type { User } from '../generated/prisma/client.ts';
import { UnauthenticatedError } from '../domain/errors.ts';
import type { Parley } from '../parley.ts';

export interface GraphQLContext {
  parley: Parley;
  viewer: User | null;
}

export function requireViewer(context: GraphQLContext): User {
  if (!context.viewer) throw new UnauthenticatedError();
  return context.viewer;
}
