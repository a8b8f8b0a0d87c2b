/**
 * `golem schemas --check`: does a decorated DTO's runtime schema agree with its TypeScript type?
 * Compares property names, required-ness and primitive types (integer counts as number; a
 * property either side leaves untyped is not compared).
 */
import type { JsonSchema } from '../../src/core/index';

type Node = Record<string, unknown>;

/** What one side says about a property. */
interface PropertyView {
  readonly required: boolean;
  /** Primitive JSON types; `undefined` when the schema does not constrain the type. */
  readonly types: ReadonlySet<string> | undefined;
  readonly hasDefault: boolean;
}

/**
 * The disagreements between the decorators' schema (`runtime`) and the TypeScript type's schema
 * (`declared`), one line each (`celsius: the decorators say string, TypeScript says number`).
 */
export function compareSchemas(runtime: JsonSchema, declared: JsonSchema): string[] {
  const fromDecorators = propertiesOf(runtime);
  const fromTypes = propertiesOf(declared);
  const problems: string[] = [];
  for (const [name, type] of fromTypes) {
    const decorated = fromDecorators.get(name);
    if (decorated === undefined) {
      problems.push(
        `${name}: declared in TypeScript but has no validator (add one, e.g. @IsString(), or @Allow())`,
      );
      continue;
    }
    if (!decorated.hasDefault && type.required !== decorated.required) {
      problems.push(
        type.required
          ? `${name}: required in TypeScript, optional by the decorators (remove @IsOptional() or add "?")`
          : `${name}: optional in TypeScript, required by the decorators (add @IsOptional())`,
      );
    }
    if (
      decorated.types !== undefined &&
      type.types !== undefined &&
      !same(decorated.types, type.types)
    ) {
      problems.push(
        `${name}: the decorators say ${show(decorated.types)}, TypeScript says ${show(type.types)}`,
      );
    }
  }
  for (const name of fromDecorators.keys()) {
    if (!fromTypes.has(name))
      problems.push(`${name}: validated but not declared in the TypeScript type`);
  }
  return problems;
}

function propertiesOf(schema: JsonSchema): Map<string, PropertyView> {
  const root = resolve(schema, schema);
  const properties = isNode(root.properties) ? root.properties : {};
  const required = new Set(Array.isArray(root.required) ? (root.required as unknown[]) : []);
  const views = new Map<string, PropertyView>();
  for (const [name, value] of Object.entries(properties)) {
    const property = isNode(value) ? value : {};
    views.set(name, {
      required: required.has(name),
      types: typesOf(schema, property, 0),
      hasDefault: 'default' in property,
    });
  }
  return views;
}

function typesOf(root: JsonSchema, schema: Node, depth: number): Set<string> | undefined {
  if (depth > 16) return undefined;
  const target = resolve(root, schema);
  const found = new Set<string>();
  const type = target.type;
  if (typeof type === 'string') found.add(type === 'integer' ? 'number' : type);
  else if (Array.isArray(type)) {
    for (const t of type) if (typeof t === 'string') found.add(t === 'integer' ? 'number' : t);
  } else if (Array.isArray(target.enum)) {
    for (const value of target.enum as unknown[]) found.add(jsonType(value));
  } else if ('const' in target) {
    found.add(jsonType(target.const));
  }
  for (const key of ['anyOf', 'oneOf']) {
    const branches = target[key];
    if (!Array.isArray(branches)) continue;
    for (const branch of branches) {
      const inner = isNode(branch) ? typesOf(root, branch, depth + 1) : undefined;
      if (inner === undefined) return undefined;
      for (const t of inner) found.add(t);
    }
  }
  return found.size === 0 ? undefined : found;
}

/** Follows a local `$ref` (`#/$defs/X` or `#/definitions/X`) to its target. */
function resolve(root: JsonSchema, schema: Node): Node {
  let current = schema;
  for (let hops = 0; typeof current.$ref === 'string' && hops < 16; hops++) {
    const match = /^#\/(\$defs|definitions)\/(.+)$/.exec(current.$ref);
    if (match === null) return current;
    const defs = (root as Node)[match[1] as string];
    const next = isNode(defs) ? defs[decodeURIComponent(match[2] as string)] : undefined;
    if (!isNode(next)) return current;
    current = next;
  }
  return current;
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value === 'object' ? 'object' : typeof value;
}

function same(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  return a.size === b.size && [...a].every((t) => b.has(t));
}

function show(types: ReadonlySet<string>): string {
  return [...types].sort().join(' | ');
}

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
