import { getOperationAST, Kind, type DocumentNode } from 'graphql';

export interface OperationLabels {
  /** query, mutation or subscription. */
  type: string;
  /**
   * The operation's first root field (`sendMessage`, `runEvents`, `__schema`): defined by the
   * schema, so a bounded label, unlike the operation name a client chooses.
   */
  operation: string;
}

const UNKNOWN: OperationLabels = { type: 'unknown', operation: 'unknown' };

export function operationLabels(document: DocumentNode, operationName?: string | null): OperationLabels {
  const operation = getOperationAST(document, operationName);
  if (!operation) return UNKNOWN;
  const field = operation.selectionSet.selections.find((selection) => selection.kind === Kind.FIELD);
  return { type: operation.operation, operation: field?.kind === Kind.FIELD ? field.name.value : 'unknown' };
}
