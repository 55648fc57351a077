import type { GraphQLFieldResolver, GraphQLSchema } from 'graphql';
import type { GraphQLContext } from '../../schema/context.ts';

type MutationResolver<Context extends GraphQLContext> = GraphQLFieldResolver<unknown, Context>;

/** Puts a mutation field's resolver inside another; a module-level function, so it is applied once. */
export type MutationResolverWrapper<Context extends GraphQLContext> = (resolve: MutationResolver<Context>) => MutationResolver<Context>;

const applied = new WeakMap<GraphQLSchema, Set<unknown>>();

/**
 * Wraps every mutation field's resolver, outside everything Pothos put around it, so that what the
 * wrapper answers takes the path of the field's typed errors. The schema object is shared by every
 * server of the process (tests run several): each wrapper is applied once per schema and reads what it
 * needs from each request's context. Wrappers applied later are the outer ones.
 */
export function wrapMutationResolvers<Context extends GraphQLContext>(schema: GraphQLSchema, wrapper: MutationResolverWrapper<Context>): void {
  let wrappers = applied.get(schema);
  if (!wrappers) {
    wrappers = new Set();
    applied.set(schema, wrappers);
  }
  if (wrappers.has(wrapper)) return;
  wrappers.add(wrapper);
  for (const field of Object.values(schema.getMutationType()?.getFields() ?? {})) {
    if (field.resolve) field.resolve = wrapper(field.resolve as MutationResolver<Context>) as typeof field.resolve;
  }
}
