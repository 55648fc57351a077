import { GraphQLError, Kind, type ValueNode } from 'graphql';
import { builder } from './builder.ts';

builder.scalarType('DateTime', {
  description: 'An ISO-8601 timestamp in UTC.',
  serialize: (value) => (value instanceof Date ? value.toISOString() : String(value)),
  parseValue: (value) => {
    const date = new Date(String(value));
    if (Number.isNaN(date.getTime())) throw new GraphQLError('DateTime must be an ISO-8601 timestamp.');
    return date;
  },
});

function literalToJson(node: ValueNode): unknown {
  switch (node.kind) {
    case Kind.STRING:
    case Kind.BOOLEAN:
      return node.value;
    case Kind.INT:
    case Kind.FLOAT:
      return Number(node.value);
    case Kind.LIST:
      return node.values.map(literalToJson);
    case Kind.OBJECT:
      return Object.fromEntries(node.fields.map((field) => [field.name.value, literalToJson(field.value)]));
    default:
      return null;
  }
}

builder.scalarType('File', {
  description: 'A file sent with a GraphQL multipart request (input only).',
  serialize: () => {
    throw new GraphQLError('File is an input-only scalar.');
  },
  parseValue: (value) => {
    // Yoga's File comes from its fetch implementation, so recognize it by shape, not by class.
    const file = value as File | null;
    if (!file || typeof file.arrayBuffer !== 'function' || typeof file.name !== 'string') {
      throw new GraphQLError('Expected a file from a multipart request.', { extensions: { code: 'BAD_USER_INPUT' } });
    }
    return file;
  },
});

builder.scalarType('JSON', {
  description: 'Arbitrary JSON (tool inputs and outputs, suspension payloads).',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: literalToJson,
});
