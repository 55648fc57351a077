import {
  GraphQLError,
  Kind,
  getNamedType,
  getNullableType,
  isCompositeType,
  isInterfaceType,
  isListType,
  isObjectType,
  type ASTVisitor,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
} from 'graphql';

export interface CostWeights {
  /** What a paged field (one with `first`/`last`) counts as when the page size is not a literal. */
  maxPageSize: number;
  /** What a list field without paging and without an entry in `listBounds` counts as. */
  unpagedListSize: number;
  /**
   * The most items each unpaged list of objects can have, by `Type.field` (`Queue.items`: the
   * queue cap); derived from the settings that bound them.
   */
  listBounds: Readonly<Record<string, number>>;
}

/**
 * About the most objects an operation can return: a field with a selection costs its items times
 * (1 + the cost of its selection). A paged field (`first`/`last`) has as many items as its literal
 * page size (at most `maxPageSize`, which is also what a variable or an absent page size counts
 * as); the lists of a page (`edges`) then count once, as the page already multiplied them; any
 * other list of objects has its bound from `listBounds` (`unpagedListSize` items without one);
 * anything else one. Scalars are free.
 * Introspection (`__schema`, `__type`) costs 1: it reads the schema in memory.
 *
 * Linear in the document: each fragment is costed once and remembered, whatever the number of
 * spreads of it. Spreads and inline fragments on different types are all added, so a union costs
 * as much as all its members together.
 */
export class OperationCost {
  private readonly fragments: Map<string, FragmentDefinitionNode>;
  private readonly fragmentCosts = new Map<string, number>();

  /** `pageTypes`: the schema's (see `pageTypesOf`), which a rule computes once for every document. */
  constructor(
    private readonly schema: GraphQLSchema,
    document: DocumentNode,
    private readonly weights: CostWeights,
    private readonly pageTypes: ReadonlySet<string> = pageTypesOf(schema),
  ) {
    this.fragments = new Map(
      document.definitions
        .filter((definition) => definition.kind === Kind.FRAGMENT_DEFINITION)
        .map((definition) => [definition.name.value, definition]),
    );
  }

  of(operation: OperationDefinitionNode): number {
    const root = this.schema.getRootType(operation.operation) ?? undefined;
    return this.selectionSetCost(operation.selectionSet, root);
  }

  private selectionSetCost(selectionSet: SelectionSetNode, parentType: GraphQLCompositeType | undefined): number {
    let cost = 0;
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) cost += this.fieldCost(selection, parentType);
      else if (selection.kind === Kind.INLINE_FRAGMENT) {
        const type = selection.typeCondition ? this.compositeType(selection.typeCondition.name.value) : parentType;
        cost += this.selectionSetCost(selection.selectionSet, type);
      } else cost += this.fragmentCost(selection.name.value);
    }
    return cost;
  }

  private fragmentCost(name: string): number {
    const known = this.fragmentCosts.get(name);
    if (known !== undefined) return known;
    const fragment = this.fragments.get(name);
    // A cycle (refused by validation anyway) or a missing fragment adds nothing.
    this.fragmentCosts.set(name, 0);
    if (!fragment) return 0;
    const cost = this.selectionSetCost(fragment.selectionSet, this.compositeType(fragment.typeCondition.name.value));
    this.fragmentCosts.set(name, cost);
    return cost;
  }

  private fieldCost(node: FieldNode, parentType: GraphQLCompositeType | undefined): number {
    if (!node.selectionSet) return 0;
    if (node.name.value.startsWith('__')) return 1;
    const field =
      parentType && (isObjectType(parentType) || isInterfaceType(parentType)) ? parentType.getFields()[node.name.value] : undefined;
    const type = field ? getNamedType(field.type) : undefined;
    const childType = type && isCompositeType(type) ? type : undefined;
    return this.itemsOf(node, field, parentType) * (1 + this.selectionSetCost(node.selectionSet, childType));
  }

  private itemsOf(node: FieldNode, field: GraphQLField<unknown, unknown> | undefined, parentType: GraphQLCompositeType | undefined): number {
    if (!field) return 1;
    if (isPaged(field)) {
      const size = node.arguments?.find((argument) => argument.name.value === 'first' || argument.name.value === 'last');
      if (size?.value.kind === Kind.INT) return Math.min(Math.max(1, Number(size.value.value)), this.weights.maxPageSize);
      return this.weights.maxPageSize;
    }
    if (!isListType(getNullableType(field.type))) return 1;
    if (!parentType) return this.weights.unpagedListSize;
    if (this.pageTypes.has(parentType.name)) return 1;
    return this.weights.listBounds[`${parentType.name}.${field.name}`] ?? this.weights.unpagedListSize;
  }

  private compositeType(name: string): GraphQLCompositeType | undefined {
    const type = this.schema.getType(name);
    return type && isCompositeType(type) ? type : undefined;
  }
}

function isPaged(field: GraphQLField<unknown, unknown>): boolean {
  return field.args.some((argument) => argument.name === 'first' || argument.name === 'last');
}

/** The types paged fields return (connections): their lists are the page. */
function pageTypesOf(schema: GraphQLSchema): ReadonlySet<string> {
  const pageTypes = new Set<string>();
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) && !isInterfaceType(type)) continue;
    for (const field of Object.values(type.getFields())) {
      if (isPaged(field)) pageTypes.add(getNamedType(field.type).name);
    }
  }
  return pageTypes;
}

/**
 * The lists of objects that are not a page (`Type.field`): each needs a bound in `listBounds`, or
 * it counts as `unpagedListSize` items whatever it can really hold.
 */
export function unpagedListFields(schema: GraphQLSchema): string[] {
  const pageTypes = pageTypesOf(schema);
  const lists: string[] = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith('__') || (!isObjectType(type) && !isInterfaceType(type)) || pageTypes.has(type.name)) continue;
    for (const field of Object.values(type.getFields())) {
      if (!isPaged(field) && isListType(getNullableType(field.type)) && isCompositeType(getNamedType(field.type))) {
        lists.push(`${type.name}.${field.name}`);
      }
    }
  }
  return lists;
}

/**
 * A validation rule refusing each operation that costs more than `maxCost` (see OperationCost).
 * The page types of a schema are found once per rule (the schema is built once, never changed).
 */
export function costLimitRule(maxCost: number, weights: CostWeights, onExceeded: (cost: number) => GraphQLError) {
  const pageTypesBySchema = new WeakMap<GraphQLSchema, ReadonlySet<string>>();
  const pageTypesFor = (schema: GraphQLSchema) => {
    let pageTypes = pageTypesBySchema.get(schema);
    if (!pageTypes) {
      pageTypes = pageTypesOf(schema);
      pageTypesBySchema.set(schema, pageTypes);
    }
    return pageTypes;
  };
  return (context: ValidationContext): ASTVisitor => {
    const schema = context.getSchema();
    const costs = new OperationCost(schema, context.getDocument(), weights, pageTypesFor(schema));
    return {
      OperationDefinition(operation) {
        const cost = costs.of(operation);
        if (cost > maxCost) context.reportError(onExceeded(cost));
      },
    };
  };
}
