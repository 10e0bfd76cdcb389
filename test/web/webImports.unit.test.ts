import { readdirSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { expect, test } from 'vitest';

/** The web app is its own package: nothing under web/ may reach into the service (src/) or anywhere else outside web/. */
const WEB_ROOT = resolve(import.meta.dirname, '../../web');
const ROOT_PACKAGE = 'inkstream';

// Every way a source file names another file: static and type imports, re-exports, side-effect
// imports, dynamic and type-position import(), require(), Vite's new URL(…, import.meta.url) and
// import.meta.glob, a triple-slash reference, and a stylesheet's @import.
const SPECIFIERS = [
  /\bfrom\s*(['"])([^'"]+)\1/g,
  /\bimport\s*(['"])([^'"]+)\1/g,
  /\bimport\s*\(\s*(['"`])([^'"`]+)\1/g,
  /\brequire\s*\(\s*(['"`])([^'"`]+)\1/g,
  /\bnew\s+URL\s*\(\s*(['"`])([^'"`]+)\1\s*,\s*import\.meta\.url/g,
  /\bimport\.meta\.glob(?:Eager)?\s*\(\s*\[?\s*(['"`])!?([^'"`]+)\1/g,
  /<reference\s+path\s*=\s*(['"])([^'"]+)\1/g,
  /@import\s+(?:url\(\s*)?(['"]?)([^'")\s;]+)\1/g,
];

function leavesWeb(specifier: string, filePath: string): boolean {
  const path = specifier.replace(/[?#].*$/, '');
  if (path.startsWith('.')) {
    const fromRoot = relative(WEB_ROOT, resolve(dirname(filePath), path));
    return fromRoot === '..' || fromRoot.startsWith('../') || isAbsolute(fromRoot);
  }
  // An absolute path or a file: URL names a place on disk, not a package; the app imports relatively.
  if (path.startsWith('/') || path.startsWith('\\') || /^file:/i.test(path)) return true;
  return path === ROOT_PACKAGE || path.startsWith(`${ROOT_PACKAGE}/`);
}

/** The import specifiers in a file of the web app that resolve outside web/. */
function importsOutsideWeb(fileText: string, filePath: string): string[] {
  const found = SPECIFIERS.flatMap((pattern) =>
    [...fileText.matchAll(pattern)].map((match) => match[2]),
  );
  return [...new Set(found)].filter((specifier) => leavesWeb(specifier, filePath));
}

const allSpecifiers = (fileText: string): number =>
  SPECIFIERS.reduce((count, pattern) => count + [...fileText.matchAll(pattern)].length, 0);

test('every way of reaching outside web/ is caught in a planted file, and imports inside it are not', () => {
  const planted = join(WEB_ROOT, 'src/keys/Planted.tsx');
  const sample = [
    "import { AppError } from '../../../src/core/errors.ts';",
    "import type { Platform } from '../../../src/platform.ts';",
    "export { WEB_PAGES } from '../../../src/features/application/index.ts';",
    "import '../../../src/app/start.ts';",
    "const lazyServer = () => import( '../../../src/main.ts' );",
    'type Config = import("../../../src/core/config.ts").Config;',
    "const legacy = require('../../../package.json');",
    "const worker = new URL('../../../src/worker.ts', import.meta.url);",
    "const all = import.meta.glob(['../../../src/**/*.ts']);",
    '/// <reference path="../../../src/types.d.ts" />',
    "import { route } from '/src/http/route.ts';",
    "import { clock } from '/work/main/src/core/clock.ts';",
    "import { ids } from 'file:///work/main/src/core/ids.ts';",
    "import { startServer } from 'inkstream/src/app/start.ts';",
    "import raw from '../../../README.md?raw';",
    "import sibling from '../../../web-old/src/App.tsx';",
    "@import url('../../../src/theme.css');",
    '',
    "import { useState } from 'react';",
    "import { app } from '../api/appClient.ts';",
    "import { Field } from './Field.tsx';",
    "import logo from '../../index.html?url';",
    "import { Chart } from 'uplot';",
    "import web from 'inkstream-web/package.json';",
  ].join('\n');
  expect(importsOutsideWeb(sample, planted).sort()).toEqual(
    [
      '../../../src/core/errors.ts',
      '../../../src/platform.ts',
      '../../../src/features/application/index.ts',
      '../../../src/app/start.ts',
      '../../../src/main.ts',
      '../../../src/core/config.ts',
      '../../../package.json',
      '../../../src/worker.ts',
      '../../../src/**/*.ts',
      '../../../src/types.d.ts',
      '/src/http/route.ts',
      '/work/main/src/core/clock.ts',
      'file:///work/main/src/core/ids.ts',
      'inkstream/src/app/start.ts',
      '../../../README.md?raw',
      '../../../web-old/src/App.tsx',
      '../../../src/theme.css',
    ].sort(),
  );
});

test('no file under web/src imports from outside web/', () => {
  const files = readdirSync(join(WEB_ROOT, 'src'), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
  const texts = files.map((file) => ({ file, text: readFileSync(file, 'utf8') }));
  // Not vacuous: the walk found the app and the patterns found its imports.
  expect(files.length).toBeGreaterThan(50);
  expect(texts.reduce((count, { text }) => count + allSpecifiers(text), 0)).toBeGreaterThan(200);
  const outside = texts.flatMap(({ file, text }) =>
    importsOutsideWeb(text, file).map((specifier) => `${relative(WEB_ROOT, file)}: ${specifier}`),
  );
  expect(outside).toEqual([]);
});
