import {
  Kind,
  TypeInfo,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  visit,
  visitWithTypeInfo,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';

/**
 * The deprecated parts of the schema one operation uses, by schema coordinate: `Type.field`,
 * `Type.field(argument:)`, `Input.field`, `Enum.VALUE`; each once, sorted. The document has
 * been validated (no cycles, every field exists); only the fragments the operation reaches count.
 * graphql-js visits iteratively, so nothing here recurses on what the client sent.
 */
export function deprecatedUses(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
): string[] {
  const reached = new Map<string, FragmentDefinitionNode>();
  const todo: (OperationDefinitionNode | FragmentDefinitionNode)[] = [operation];
  while (todo.length) {
    visit(todo.pop()!, {
      FragmentSpread(s) {
        const f = fragments.get(s.name.value);
        if (f && !reached.has(f.name.value)) {
          reached.set(f.name.value, f);
          todo.push(f);
        }
      },
    });
  }

  const found = new Set<string>();
  const info = new TypeInfo(schema);
  const document: DocumentNode = { kind: Kind.DOCUMENT, definitions: [operation, ...reached.values()] };
  visit(
    document,
    visitWithTypeInfo(info, {
      Field() {
        const field = info.getFieldDef();
        const parent = info.getParentType();
        if (field?.deprecationReason != null && parent) found.add(`${parent.name}.${field.name}`);
      },
      Argument() {
        const arg = info.getArgument();
        const field = info.getFieldDef();
        const parent = info.getParentType();
        // directive arguments have no field: `@directive(argument:)`
        if (arg?.deprecationReason != null)
          found.add(
            field && parent
              ? `${parent.name}.${field.name}(${arg.name}:)`
              : `@${info.getDirective()?.name}(${arg.name}:)`,
          );
      },
      ObjectField(node) {
        const input = getNamedType(info.getParentInputType());
        const field = isInputObjectType(input) ? input.getFields()[node.name.value] : undefined;
        if (field?.deprecationReason != null) found.add(`${input!.name}.${field.name}`);
      },
      EnumValue() {
        const value = info.getEnumValue();
        const type = getNamedType(info.getInputType());
        if (value?.deprecationReason != null && type) found.add(`${type.name}.${value.name}`);
      },
    }),
  );
  return [...found].sort();
}

/** Whether anything in the schema is deprecated: when nothing is, operations are not walked at all. */
export function hasDeprecations(schema: GraphQLSchema): boolean {
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith('__')) continue;
    if (isEnumType(type) && type.getValues().some((v) => v.deprecationReason != null)) return true;
    if (isInputObjectType(type) && Object.values(type.getFields()).some((f) => f.deprecationReason != null))
      return true;
    if (
      (isObjectType(type) || isInterfaceType(type)) &&
      Object.values(type.getFields()).some(
        (f) => f.deprecationReason != null || f.args.some((a) => a.deprecationReason != null),
      )
    )
      return true;
  }
  return schema.getDirectives().some((d) => d.args.some((a) => a.deprecationReason != null));
}
