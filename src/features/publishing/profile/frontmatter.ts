import type { Parsers } from './parsers.ts';

/**
 * Reads the frontmatter of a repository's post as data, never as code: YAML with the core schema
 * (no custom tags: `!!js/function` is refused, not resolved), TOML between `+++`, or a JSON object.
 * A `---js` (or any other language after the opening fence) block is refused outright, as
 * gray-matter would evaluate it.
 */

export type ScalarKind = 'date' | 'datetime' | 'quoted' | 'plain';

export type FrontmatterField = {
  name: string;
  value: unknown;
  /** How a scalar was written: a plain date, a timestamp, a quoted text or another plain value. */
  kind: ScalarKind | 'list' | 'map';
  line: number;
};

export type ParsedFrontmatter =
  | { ok: true; format: 'yaml' | 'toml' | 'json'; fields: FrontmatterField[]; body: string }
  | { ok: false; reason: string };

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATETIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/;

export function kindOfText(text: string, quoted: boolean): ScalarKind {
  if (quoted) return 'quoted';
  if (DATE.test(text)) return 'date';
  if (DATETIME.test(text)) return 'datetime';
  return 'plain';
}

/** The line (1-based) of `text` at character `offset`. */
const lineAt = (text: string, offset: number) => text.slice(0, offset).split('\n').length;

export function parseFrontmatter(file: string, parsers: Parsers): ParsedFrontmatter {
  const text = file.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');
  const open = /^(---|\+\+\+)([^\n]*)\n/.exec(text);
  if (open) {
    const fence = open[1];
    const language = open[2].trim();
    if (language)
      return {
        ok: false,
        reason: `its frontmatter is declared as \`${fence}${language}\`, which would run as code; it was not read`,
      };
    const closeAt = text.indexOf(`\n${fence}`, open[0].length - 1);
    if (closeAt < 0)
      return { ok: false, reason: `its frontmatter opens with ${fence} but never closes` };
    const inner = text.slice(open[0].length, closeAt + 1);
    const body = text.slice(closeAt + 1 + fence.length).replace(/^[^\n]*\n?/, '');
    return fence === '---' ? yamlFields(inner, body, parsers) : tomlFields(inner, body, parsers);
  }
  if (text.startsWith('{')) return jsonFields(text);
  return { ok: true, format: 'yaml', fields: [], body: text };
}

function yamlFields(inner: string, body: string, parsers: Parsers): ParsedFrontmatter {
  const { YAML } = parsers;
  const lineCounter = new YAML.LineCounter();
  let doc: ReturnType<typeof YAML.parseDocument>;
  try {
    doc = YAML.parseDocument(inner, {
      schema: 'core',
      lineCounter,
      uniqueKeys: true,
      prettyErrors: false,
    });
  } catch (error) {
    return {
      ok: false,
      reason: `its YAML frontmatter could not be read (${(error as Error).message})`,
    };
  }
  const problem = [...doc.errors, ...doc.warnings][0];
  if (problem)
    return {
      ok: false,
      reason: `its YAML frontmatter could not be read as plain data (${problem.message.split('\n')[0]})`,
    };
  const root = doc.contents;
  if (root === null) return { ok: true, format: 'yaml', fields: [], body };
  if (!YAML.isMap(root))
    return { ok: false, reason: 'its YAML frontmatter is not a map of fields' };
  const fields: FrontmatterField[] = [];
  for (const pair of root.items) {
    if (!YAML.isScalar(pair.key)) continue;
    const name = String(pair.key.value);
    const line = lineCounter.linePos(pair.key.range?.[0] ?? 0).line;
    const node = pair.value;
    let value: unknown;
    try {
      value = YAML.isNode(node) ? node.toJS(doc, { maxAliasCount: 50 }) : node;
    } catch (error) {
      return {
        ok: false,
        reason: `its frontmatter field ${name} could not be read (${(error as Error).message})`,
      };
    }
    let kind: FrontmatterField['kind'] = 'plain';
    if (YAML.isScalar(node))
      kind = kindOfText(
        String(node.source ?? node.value ?? ''),
        node.type === 'QUOTE_DOUBLE' || node.type === 'QUOTE_SINGLE',
      );
    else if (YAML.isSeq(node)) kind = 'list';
    else if (YAML.isMap(node)) kind = 'map';
    fields.push({ name, value, kind, line: line + 1 });
  }
  return { ok: true, format: 'yaml', fields, body };
}

function tomlFields(inner: string, body: string, parsers: Parsers): ParsedFrontmatter {
  let data: Record<string, unknown>;
  try {
    data = parsers.TOML.parse(inner) as Record<string, unknown>;
  } catch (error) {
    return {
      ok: false,
      reason: `its TOML frontmatter could not be read (${(error as Error).message.split('\n')[0]})`,
    };
  }
  const lines = inner.split('\n');
  const fields = Object.entries(data).map(([name, value]): FrontmatterField => {
    const at = lines.findIndex((line) =>
      new RegExp(`^\\s*["']?${escape(name)}["']?\\s*=`).test(line),
    );
    const tableAt = lines.findIndex((line) => line.trim() === `[${name}]`);
    const index = at >= 0 ? at : tableAt;
    let kind: FrontmatterField['kind'] = 'plain';
    if (value instanceof Date) {
      const written = at >= 0 ? lines[at].split('=').slice(1).join('=').trim() : '';
      kind = DATE.test(written) ? 'date' : 'datetime';
    } else if (typeof value === 'string') kind = 'quoted';
    else if (Array.isArray(value)) kind = 'list';
    else if (value && typeof value === 'object') kind = 'map';
    return { name, value, kind, line: index >= 0 ? index + 2 : 1 };
  });
  return { ok: true, format: 'toml', fields, body };
}

function jsonFields(text: string): ParsedFrontmatter {
  // Hugo's JSON frontmatter: an object at the top, then the body after its closing brace.
  let depth = 0;
  let inString = false;
  let end = -1;
  for (let i = 0; i < text.length && end < 0; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) end = i;
  }
  if (end < 0) return { ok: false, reason: 'its JSON frontmatter never closes' };
  let data: unknown;
  try {
    data = JSON.parse(text.slice(0, end + 1));
  } catch (error) {
    return {
      ok: false,
      reason: `its JSON frontmatter could not be read (${(error as Error).message})`,
    };
  }
  if (!data || typeof data !== 'object' || Array.isArray(data))
    return { ok: false, reason: 'its JSON frontmatter is not an object' };
  const fields = Object.entries(data as Record<string, unknown>).map(([name, value]) => {
    const at = text.indexOf(`"${name}"`);
    const kind: FrontmatterField['kind'] =
      typeof value === 'string'
        ? DATE.test(value)
          ? 'date'
          : DATETIME.test(value)
            ? 'datetime'
            : 'quoted'
        : Array.isArray(value)
          ? 'list'
          : value && typeof value === 'object'
            ? 'map'
            : 'plain';
    return { name, value, kind, line: at >= 0 ? lineAt(text, at) : 1 };
  });
  return { ok: true, format: 'json', fields, body: text.slice(end + 1).replace(/^\n/, '') };
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
