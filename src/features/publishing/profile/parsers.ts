/**
 * The parsers the learner reads a repository with, loaded on first use so that a process that
 * never learns a profile never loads them. None of them runs what it parses: `@babel/parser`
 * builds a syntax tree of a config file, `yaml` reads data with the core schema, `smol-toml` reads
 * TOML.
 */

type BabelParser = typeof import('@babel/parser');
type YamlModule = typeof import('yaml');
type TomlModule = typeof import('smol-toml');

export type Parsers = { babel: BabelParser; YAML: YamlModule; TOML: TomlModule };

let loading: Promise<Parsers> | null = null;

export function loadParsers(): Promise<Parsers> {
  loading ??= Promise.all([import('@babel/parser'), import('yaml'), import('smol-toml')]).then(
    ([babel, YAML, TOML]) => ({ babel, YAML, TOML }),
  );
  return loading;
}
