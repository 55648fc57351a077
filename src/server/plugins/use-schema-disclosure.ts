import { blockFieldSuggestionsPlugin } from '@escape.tech/graphql-armor-block-field-suggestions';
import { NoSchemaIntrospectionCustomRule, type ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';

export interface SchemaDisclosureOptions {
  /** False: `__schema` and `__type` are refused, and no error suggests a field, argument, type or enum value. */
  introspection: boolean;
}

/**
 * With introspection off, no answer discloses the schema: introspection fails validation, and the
 * "Did you mean …?" of an error, which would reveal names one guess at a time, is cut. graphql-armor
 * cuts it from validation errors naming fields, arguments and types; enum values ("Did you mean the
 * enum value …?") and the variable errors raised when execution begins are cut here. With
 * introspection on, suggestions reveal nothing it does not.
 */
export function useSchemaDisclosure({ introspection }: SchemaDisclosureOptions): Plugin {
  if (introspection) return {};
  return {
    onPluginInit({ addPlugin }) {
      addPlugin(blockFieldSuggestionsPlugin({ mask: '' }));
    },
    onValidate({ addValidationRule }) {
      addValidationRule(NoSchemaIntrospectionCustomRule);
      return ({ result }) => withoutSuggestions(result);
    },
    onExecute: () => ({ onExecuteDone: ({ result }) => withoutSuggestionsIn(result) }),
    onSubscribe: () => ({ onSubscribeResult: ({ result }) => withoutSuggestionsIn(result) }),
  };
}

const SUGGESTION = /\s*Did you mean [^?]*\?/g;

function withoutSuggestionsIn(result: unknown): void {
  const errors = (result as ExecutionResult | undefined)?.errors;
  if (Array.isArray(errors)) withoutSuggestions(errors);
}

function withoutSuggestions(errors: readonly Error[]): void {
  for (const error of errors) {
    const masked = error.message.replace(SUGGESTION, '');
    if (masked !== error.message) error.message = masked;
  }
}
