import type { FieldType } from '../../../domain/integrations/contentProfile.ts';
import type { Parsers } from './parsers.ts';

/**
 * Reads a site's JavaScript or TypeScript config as a syntax tree, never by running it: the values
 * learned are the ones written literally (strings, numbers, objects, arrays, template literals and
 * top-level constants made of those). Anything computed (a function call, an import) is unknown.
 */

export type Node = { type: string; loc?: { start: { line: number } } } & Record<string, unknown>;
export type JsModule = { file: string; program: Node; constants: Map<string, Node> };

export const UNKNOWN: unique symbol = Symbol('unknown');

const isNode = (value: unknown): value is Node =>
  !!value && typeof value === 'object' && typeof (value as Node).type === 'string';
const child = (node: Node, key: string): Node | null => {
  const value = node[key];
  return isNode(value) ? value : null;
};
const children = (node: Node, key: string): Node[] => {
  const value = node[key];
  return Array.isArray(value) ? value.filter(isNode) : [];
};

export function parseModule(
  source: string,
  file: string,
  parsers: Parsers,
): JsModule | { error: string } {
  let program: Node;
  try {
    const ast = parsers.babel.parse(source, {
      sourceType: 'unambiguous',
      errorRecovery: false,
      plugins: [['typescript', {}], 'jsx'],
    }) as unknown as Node;
    program = child(ast, 'program') as Node;
  } catch (error) {
    return { error: `${file} could not be parsed (${(error as Error).message})` };
  }
  const constants = new Map<string, Node>();
  for (const statement of children(program, 'body')) {
    const declaration =
      statement.type === 'ExportNamedDeclaration' ? child(statement, 'declaration') : statement;
    if (declaration?.type !== 'VariableDeclaration') continue;
    for (const declarator of children(declaration, 'declarations')) {
      const id = child(declarator, 'id');
      const init = child(declarator, 'init');
      if (id?.type === 'Identifier' && init) constants.set(String(id.name), init);
    }
  }
  return { file, program, constants };
}

/** Strips `as const`, `satisfies X`, parentheses and `x!`. */
export function bare(node: Node): Node {
  let current = node;
  while (
    [
      'TSAsExpression',
      'TSSatisfiesExpression',
      'TSNonNullExpression',
      'ParenthesizedExpression',
    ].includes(current.type)
  )
    current = child(current, 'expression') as Node;
  return current;
}

/** An identifier followed to the top-level constant it names (once per name: no cycles). */
export function resolve(node: Node, mod: JsModule, seen = new Set<string>()): Node {
  const plain = bare(node);
  if (plain.type !== 'Identifier') return plain;
  const name = String(plain.name);
  const target = mod.constants.get(name);
  if (!target || seen.has(name)) return plain;
  seen.add(name);
  return resolve(target, mod, seen);
}

/** A literal value, or UNKNOWN. `__dirname` reads as the repository root (`.`). */
export function staticValue(node: Node | null, mod: JsModule, depth = 0): unknown {
  if (!node || depth > 20) return UNKNOWN;
  const n = resolve(node, mod);
  switch (n.type) {
    case 'StringLiteral':
    case 'NumericLiteral':
    case 'BooleanLiteral':
      return n.value;
    case 'NullLiteral':
      return null;
    case 'Identifier':
      return n.name === '__dirname' ? '.' : n.name === 'undefined' ? undefined : UNKNOWN;
    case 'TemplateLiteral': {
      const quasis = children(n, 'quasis');
      const expressions = children(n, 'expressions');
      let text = '';
      for (let i = 0; i < quasis.length; i++) {
        text += String((quasis[i].value as { cooked: string }).cooked ?? '');
        if (i < expressions.length) {
          const value = staticValue(expressions[i], mod, depth + 1);
          if (typeof value !== 'string' && typeof value !== 'number') return UNKNOWN;
          text += String(value);
        }
      }
      return text;
    }
    case 'ArrayExpression':
      return children(n, 'elements').map((element) => staticValue(element, mod, depth + 1));
    case 'ObjectExpression': {
      const out: Record<string, unknown> = {};
      for (const property of children(n, 'properties')) {
        const key = propertyName(property);
        if (key !== null && property.type === 'ObjectProperty')
          out[key] = staticValue(child(property, 'value'), mod, depth + 1);
      }
      return out;
    }
    case 'UnaryExpression':
      if (n.operator === '!') {
        const value = staticValue(child(n, 'argument'), mod, depth + 1);
        return value === UNKNOWN ? UNKNOWN : !value;
      }
      return UNKNOWN;
    default:
      return UNKNOWN;
  }
}

export function propertyName(property: Node): string | null {
  if (property.type !== 'ObjectProperty' && property.type !== 'ObjectMethod') return null;
  const key = child(property, 'key');
  if (!key) return null;
  if (key.type === 'Identifier' && !property.computed) return String(key.name);
  if (key.type === 'StringLiteral') return String(key.value);
  return null;
}

/** The value of `name` in an object literal, or null. */
export function property(object: Node | null, name: string): Node | null {
  if (!object || object.type !== 'ObjectExpression') return null;
  for (const p of children(object, 'properties'))
    if (propertyName(p) === name && p.type === 'ObjectProperty') return child(p, 'value');
  return null;
}

export function propertyLine(object: Node, name: string): number | undefined {
  for (const p of children(object, 'properties'))
    if (propertyName(p) === name) return p.loc?.start.line;
  return undefined;
}

/** Every object property named `name` anywhere in the module, in source order. */
export function findProperties(mod: JsModule, name: string): Node[] {
  const found: Node[] = [];
  walk(mod.program, (node) => {
    if (node.type === 'ObjectProperty' && propertyName(node) === name) {
      const value = child(node, 'value');
      if (value) found.push(value);
    }
  });
  return found;
}

/** Every call of a function named `name` (`name(...)` or `x.name(...)`) anywhere in the module. */
export function findCalls(mod: JsModule, name: string): Node[] {
  const found: Node[] = [];
  walk(mod.program, (node) => {
    if (node.type === 'CallExpression' && calleeName(node) === name) found.push(node);
  });
  return found;
}

export function calleeName(call: Node): string | null {
  const callee = child(call, 'callee');
  if (!callee) return null;
  if (callee.type === 'Identifier') return String(callee.name);
  if (callee.type === 'MemberExpression') {
    const prop = child(callee, 'property');
    return prop?.type === 'Identifier' ? String(prop.name) : null;
  }
  return null;
}

export const args = (call: Node) => children(call, 'arguments');

function walk(node: Node, visit: (node: Node) => void, depth = 0): void {
  if (depth > 200) return;
  visit(node);
  for (const [key, value] of Object.entries(node)) {
    if (key === 'loc' || key === 'leadingComments' || key === 'trailingComments') continue;
    if (Array.isArray(value)) {
      for (const item of value) if (isNode(item)) walk(item, visit, depth + 1);
    } else if (isNode(value)) walk(value, visit, depth + 1);
  }
}

/** The object an arrow function or a function returns, when it returns one literally. */
export function returnedObject(node: Node, mod: JsModule): Node | null {
  const n = resolve(node, mod);
  if (n.type === 'ObjectExpression') return n;
  if (n.type !== 'ArrowFunctionExpression' && n.type !== 'FunctionExpression') return null;
  const body = bare(child(n, 'body') as Node);
  if (body.type === 'ObjectExpression') return body;
  if (body.type === 'BlockStatement') {
    for (const statement of children(body, 'body'))
      if (statement.type === 'ReturnStatement') {
        const argument = child(statement, 'argument');
        return argument ? returnedObject(argument, mod) : null;
      }
  }
  return null;
}

// ——— zod (Astro, Velite) ———

/** One field of a schema declared in code. `computed`: derived by the site, never written. */
export type SchemaField = {
  name: string;
  type: FieldType | 'computed';
  format?: string;
  required: boolean;
  values?: string[];
  line?: number;
};

type Segment = { name: string; args: Node[] | null };

/** `z.coerce.date().optional()` → z, coerce, date(), optional(). */
function segments(node: Node, mod: JsModule): Segment[] | null {
  const out: Segment[] = [];
  let current: Node | null = resolve(node, mod);
  for (let guard = 0; current && guard < 40; guard++) {
    current = bare(current);
    if (current.type === 'CallExpression') {
      const callee = bare(child(current, 'callee') as Node);
      if (callee.type === 'Identifier') {
        out.unshift({ name: String(callee.name), args: args(current) });
        return out;
      }
      if (callee.type !== 'MemberExpression') return null;
      const prop = child(callee, 'property');
      out.unshift({ name: String(prop?.name ?? ''), args: args(current) });
      current = child(callee, 'object');
    } else if (current.type === 'MemberExpression') {
      out.unshift({ name: String(child(current, 'property')?.name ?? ''), args: null });
      current = child(current, 'object');
    } else if (current.type === 'Identifier') {
      out.unshift({ name: String(current.name), args: null });
      return out;
    } else return null;
  }
  return null;
}

const OPTIONAL = new Set(['optional', 'default', 'nullish', 'catch']);
const COMPUTED = new Set(['markdown', 'mdx', 'excerpt', 'metadata', 'toc', 'path', 'raw', 'file']);

/**
 * What a zod (or Velite `s.`) expression accepts. `imageName`: the local name of the `image`
 * helper Astro passes to a schema function.
 */
export function zodType(
  node: Node,
  mod: JsModule,
  imageName: string | null,
): Omit<SchemaField, 'name' | 'line'> {
  const chain = segments(node, mod);
  if (!chain) return { type: 'string', required: true, format: 'unread' };
  const calls = chain.filter((s) => s.args !== null);
  const [base, ...modifiers] = calls;
  const required = !modifiers.some((m) => OPTIONAL.has(m.name));
  if (!base) return { type: 'string', required, format: 'unread' };
  const name = base.name;
  const firstArg = base.args?.[0] ?? null;
  if (imageName && name === imageName && chain.length === calls.length)
    return { type: 'image', required };
  switch (name) {
    case 'string':
      return modifiers.some((m) => m.name === 'datetime')
        ? { type: 'datetime', required, format: 'ISO 8601' }
        : modifiers.some((m) => m.name === 'date')
          ? { type: 'string', required, format: 'YYYY-MM-DD' }
          : { type: 'string', required };
    case 'number':
      return { type: 'number', required };
    case 'boolean':
      return { type: 'boolean', required };
    case 'date':
      return { type: 'date', required };
    case 'isodate':
      return { type: 'date', required, format: 'ISO 8601' };
    case 'slug':
    case 'unique':
      return { type: 'string', required };
    case 'image':
      return { type: 'image', required };
    case 'reference':
      return { type: 'reference', required, format: refName(firstArg, mod) };
    case 'enum': {
      const values = staticValue(firstArg, mod);
      return Array.isArray(values) && values.every((v) => typeof v === 'string')
        ? { type: 'string', required, values }
        : { type: 'string', required };
    }
    case 'literal': {
      const value = staticValue(firstArg, mod);
      return typeof value === 'string'
        ? { type: 'string', required, values: [value] }
        : { type: 'string', required };
    }
    case 'array': {
      const inner = firstArg ? zodType(firstArg, mod, imageName) : null;
      if (inner?.type === 'reference')
        return { type: 'reference[]', required, format: inner.format };
      return { type: 'string[]', required };
    }
    case 'object': {
      const shape = firstArg ? resolve(firstArg, mod) : null;
      const keys =
        shape?.type === 'ObjectExpression'
          ? children(shape, 'properties')
              .map(propertyName)
              .filter((k): k is string => !!k)
          : [];
      return { type: 'object', required, format: `{ ${keys.join(', ')} }` };
    }
    default:
      if (COMPUTED.has(name)) return { type: 'computed', required: false };
      return { type: 'string', required, format: 'unread' };
  }
}

const refName = (node: Node | null, mod: JsModule) => {
  const value = staticValue(node, mod);
  return typeof value === 'string' ? value : undefined;
};

/** The fields of `z.object({...})` (or `s.object`), following `.extend({...})`. */
export function objectSchemaFields(
  node: Node,
  mod: JsModule,
  imageName: string | null,
): SchemaField[] | null {
  const chain = segments(node, mod);
  const objectCall = chain?.find((s) => s.name === 'object' && s.args);
  const shapes = [objectCall, ...(chain?.filter((s) => s.name === 'extend' && s.args) ?? [])];
  const fields: SchemaField[] = [];
  let found = false;
  for (const segment of shapes) {
    const shape = segment?.args?.[0] ? resolve(segment.args[0], mod) : null;
    if (shape?.type !== 'ObjectExpression') continue;
    found = true;
    for (const p of children(shape, 'properties')) {
      const name = propertyName(p);
      const value = child(p, 'value');
      if (!name || !value) continue;
      fields.push({ name, line: p.loc?.start.line, ...zodType(value, mod, imageName) });
    }
  }
  return found ? fields : null;
}

/**
 * An Astro `schema`: a zod object, or a function of `{ image }` returning one. The image helper's
 * local name comes from the function's destructured argument.
 */
export function astroSchemaFields(schema: Node, mod: JsModule): SchemaField[] | null {
  const n = resolve(schema, mod);
  if (n.type === 'ArrowFunctionExpression' || n.type === 'FunctionExpression') {
    const param = children(n, 'params')[0];
    let imageName: string | null = null;
    if (param?.type === 'ObjectPattern')
      for (const p of children(param, 'properties'))
        if (propertyName(p) === 'image') {
          const local = child(p, 'value');
          imageName = local?.type === 'Identifier' ? String(local.name) : 'image';
        }
    let body = bare(child(n, 'body') as Node);
    if (body.type === 'BlockStatement') {
      const returned = children(body, 'body').find((s) => s.type === 'ReturnStatement');
      const argument = returned && child(returned, 'argument');
      if (!argument) return null;
      body = argument;
    }
    return objectSchemaFields(body, mod, imageName);
  }
  return objectSchemaFields(n, mod, null);
}
