/**
 * Frontmatter written in the site's own format (YAML between `---`, TOML between `+++`, or a JSON
 * object), from a small closed set of values Inkstream produces. Every string is a quoted scalar
 * with its control and line-separator characters escaped, so no title can end the block, add a key
 * or turn into another type; a date is written as the format's own date or timestamp.
 */

/** A YAML/TOML date (`2026-11-29`) or timestamp (`2026-11-29T08:00:00Z`), written unquoted. */
export type DateValue = { kind: 'date' | 'datetime'; text: string };

export type FrontmatterValue =
  | string
  | number
  | boolean
  | DateValue
  | string[]
  | { [key: string]: string };

export type FrontmatterFormat = 'yaml' | 'toml' | 'json';

const isDate = (value: FrontmatterValue): value is DateValue =>
  typeof value === 'object' && !Array.isArray(value) && 'kind' in value && 'text' in value;

/** A double-quoted string valid in YAML, TOML and JSON alike. */
export function quoted(text: string): string {
  return JSON.stringify(text).replace(
    /[\u007f-\u009f\u00ad\u2028\u2029\ufeff\u200e\u200f\u202a-\u202e\u2066-\u2069]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

function scalar(value: FrontmatterValue, format: FrontmatterFormat): string {
  if (typeof value === 'string') return quoted(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (isDate(value)) return format === 'json' ? quoted(value.text) : value.text;
  if (Array.isArray(value)) return `[${value.map((item) => quoted(item)).join(', ')}]`;
  const entries = Object.entries(value);
  if (format === 'toml')
    return `{ ${entries.map(([key, item]) => `${bareKey(key, format)} = ${quoted(item)}`).join(', ')} }`;
  return `{ ${entries.map(([key, item]) => `${bareKey(key, format)}: ${quoted(item)}`).join(', ')} }`;
}

/** Keys come from the site's schema: written bare only when they are plain names, quoted otherwise. */
const bareKey = (key: string, format: FrontmatterFormat): string =>
  format !== 'json' && /^[A-Za-z_][A-Za-z0-9_-]*$/.test(key) ? key : quoted(key);

export function frontmatterBlock(
  entries: [string, FrontmatterValue][],
  format: FrontmatterFormat,
): string {
  if (format === 'json') {
    const lines = entries.map(([key, value]) => `  ${quoted(key)}: ${scalar(value, format)}`);
    return `{\n${lines.join(',\n')}\n}\n`;
  }
  const fence = format === 'toml' ? '+++' : '---';
  const separator = format === 'toml' ? ' = ' : ': ';
  const lines = entries.map(
    ([key, value]) => `${bareKey(key, format)}${separator}${scalar(value, format)}`,
  );
  return `${fence}\n${lines.join('\n')}\n${fence}\n`;
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** The tokens a date written as text may use (`YYYY-MM-DD`, `MMM DD YYYY`, `D MMMM YYYY`). */
const TOKENS = /YYYY|MMMM|MMM|MM|M|DD|D/g;

/** `day` (YYYY-MM-DD) written in `format`; unknown letters stay as they are. */
export function formatDay(day: string, format: string): string {
  const [year, month, date] = day.split('-').map(Number);
  const values: Record<string, string> = {
    YYYY: String(year).padStart(4, '0'),
    MMMM: MONTHS[month - 1],
    MMM: MONTHS[month - 1].slice(0, 3),
    MM: String(month).padStart(2, '0'),
    M: String(month),
    DD: String(date).padStart(2, '0'),
    D: String(date),
  };
  return format.replace(TOKENS, (token) => values[token]);
}

/** A pattern matching the texts `format` produces, for checking a date written as text. */
export function dayPattern(format: string): RegExp {
  const parts: Record<string, string> = {
    YYYY: '\\d{4}',
    MMMM: `(?:${MONTHS.join('|')})`,
    MMM: `(?:${MONTHS.map((m) => m.slice(0, 3)).join('|')})`,
    MM: '\\d{2}',
    M: '\\d{1,2}',
    DD: '\\d{2}',
    D: '\\d{1,2}',
  };
  let pattern = '';
  let last = 0;
  for (const match of format.matchAll(TOKENS)) {
    pattern += format.slice(last, match.index).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    pattern += parts[match[0]];
    last = match.index + match[0].length;
  }
  pattern += format.slice(last).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${pattern}$`);
}
