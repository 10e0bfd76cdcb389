import { readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

const FONT_DIRS = [
  '/usr/share/fonts',
  '/usr/local/share/fonts',
  join(homedir(), '.fonts'),
  join(homedir(), '.local/share/fonts'),
  '/System/Library/Fonts',
  '/Library/Fonts',
  'C:\\Windows\\Fonts',
];

/** Sans families we know by their file names, best first. */
const KNOWN_SANS: Array<[RegExp, string]> = [
  [/^DejaVuSans(-Bold)?\.ttf$/i, 'DejaVu Sans'],
  [/^LiberationSans-/i, 'Liberation Sans'],
  [/^NotoSans-/i, 'Noto Sans'],
  [/^Roboto-/i, 'Roboto'],
  [/^OpenSans-/i, 'Open Sans'],
  [/^Ubuntu-/i, 'Ubuntu'],
  [/^Arial/i, 'Arial'],
  [/^Helvetica/i, 'Helvetica'],
  [/^FreeSans/i, 'FreeSans'],
];

/** Font files under the usual system folders (bounded, so a huge font folder cannot stall a render). */
export function findFontFiles(dirs: readonly string[] = FONT_DIRS, limit = 5000): string[] {
  const found: string[] = [];
  const walk = (dir: string, depth: number): void => {
    if (depth > 6 || found.length >= limit) return;
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path, depth + 1);
      else if (/\.(ttf|otf|ttc)$/i.test(entry.name)) found.push(path);
    }
  };
  for (const dir of dirs) walk(dir, 0);
  return found;
}

/** The first known sans family among the files, if any. */
export function preferredFamily(files: readonly string[]): string | undefined {
  for (const [pattern, family] of KNOWN_SANS) {
    if (files.some((file) => pattern.test(file.split(/[\\/]/).pop() ?? ''))) return family;
  }
  return undefined;
}
