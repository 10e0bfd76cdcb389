/**
 * What the palette and cover style need from a site's CSS, read with a tolerant scan (not a full
 * CSS parser): custom properties, where colours are used, heading and body fonts, corner radii.
 */
export type CssVariable = { name: string; value: string };
export type ColorUse = { token: string; property: string; variable?: string };
export type CssFacts = {
  variables: CssVariable[];
  colorUses: ColorUse[];
  /** font-family stacks, e.g. '"Fraunces", Georgia, serif'. */
  headingFonts: string[];
  bodyFonts: string[];
  headingWeights: string[];
  headingTransforms: string[];
  radii: string[];
  gradients: number;
};

const colorProperty =
  /^(?:color|background|background-color|background-image|border(?:-[a-z]+)*|outline(?:-color)?|fill|stroke|box-shadow|text-shadow|text-decoration(?:-color)?|accent-color|caret-color|column-rule(?:-color)?|stop-color)$/;
const colorToken =
  /#[0-9a-fA-F]{3,8}\b|\b(?:rgba?|hsla?|hwb|lab|lch|oklab|oklch|color)\([^()]*\)|\bvar\(\s*--[\w-]+\s*(?:,[^()]*)?\)|\b[a-zA-Z]{3,20}\b/g;
const headingSelector =
  /(?:^|[\s,>+~])(?:h[1-3]|\.?[\w-]*(?:heading|title|display|headline)[\w-]*)\b/i;
const bodySelector = /(?:^|[\s,])(?::root|html|body)\b/i;
const genericFonts =
  /^(?:serif|sans-serif|monospace|cursive|fantasy|system-ui|ui-\w+|-apple-system|blinkmacsystemfont|inherit|initial|unset|emoji|math)$/i;

export function readCss(sources: readonly string[]): CssFacts {
  const facts: CssFacts = {
    variables: [],
    colorUses: [],
    headingFonts: [],
    bodyFonts: [],
    headingWeights: [],
    headingTransforms: [],
    radii: [],
    gradients: 0,
  };
  const rules: Array<{ selector: string; declarations: Array<[string, string]> }> = [];
  for (const source of sources) {
    const css = source.replace(/\/\*[\s\S]*?\*\//g, '');
    for (const [, selector, body] of css.matchAll(/([^{}]*)\{([^{}]*)\}/g)) {
      const declarations = body.split(';').flatMap((declaration): Array<[string, string]> => {
        const colon = declaration.indexOf(':');
        if (colon < 0) return [];
        const property = declaration.slice(0, colon).trim();
        const value = declaration
          .slice(colon + 1)
          .replace(/!important/i, '')
          .trim();
        return property && value
          ? [[property.startsWith('--') ? property : property.toLowerCase(), value]]
          : [];
      });
      rules.push({ selector: selector.trim(), declarations });
      for (const [property, value] of declarations)
        if (property.startsWith('--')) facts.variables.push({ name: property, value });
    }
  }
  const resolve = variableResolver(facts.variables);

  for (const { selector, declarations } of rules) {
    const heading = headingSelector.test(selector);
    const body = bodySelector.test(selector);
    for (const [property, rawValue] of declarations) {
      if (property.startsWith('--')) continue;
      if (colorProperty.test(property)) {
        if (/gradient\(/i.test(rawValue)) facts.gradients += 1;
        for (const [token] of rawValue.matchAll(colorToken)) {
          const reference = /^var\(\s*(--[\w-]+)/i.exec(token)?.[1];
          const resolved = reference ? resolve(token) : token;
          if (resolved)
            facts.colorUses.push({
              token: resolved,
              property,
              ...(reference ? { variable: reference } : {}),
            });
        }
      }
      const value = resolve(rawValue) ?? rawValue;
      if (property === 'font-family' || property === 'font') {
        const stack =
          property === 'font'
            ? value.replace(/^.*?\d+(?:px|rem|em|pt|%)(?:\s*\/\s*[\d.]+\w*)?\s+/, '')
            : value;
        if (heading) facts.headingFonts.push(stack);
        if (body) facts.bodyFonts.push(stack);
      }
      if (heading && property === 'font-weight') facts.headingWeights.push(value);
      if (heading && property === 'text-transform')
        facts.headingTransforms.push(value.toLowerCase());
      if (property === 'border-radius') facts.radii.push(value);
    }
  }
  return facts;
}

/** Replaces var(--x, fallback) by the variable's value (following chains, at most 5 deep). */
function variableResolver(variables: readonly CssVariable[]) {
  const values = new Map<string, string>();
  for (const { name, value } of variables) if (!values.has(name)) values.set(name, value);
  const resolve = (value: string, depth = 0): string | undefined => {
    if (depth > 5) return undefined;
    if (!value.includes('var(')) return value;
    let unresolved = false;
    const replaced = value.replace(
      /var\(\s*(--[\w-]+)\s*(?:,([^()]*))?\)/g,
      (_, name: string, fallback?: string) => {
        const found = values.get(name) ?? fallback?.trim();
        if (found === undefined) unresolved = true;
        return found ?? '';
      },
    );
    return unresolved ? undefined : resolve(replaced, depth + 1);
  };
  return resolve;
}

/** The first named family of a font-family stack, unquoted; generic families are skipped. */
export function firstFamily(stack: string): string | undefined {
  for (const family of stack.split(',')) {
    const name = family
      .trim()
      .replace(/^["']|["']$/g, '')
      .trim();
    if (name && !genericFonts.test(name) && !name.startsWith('var(')) return name;
  }
  return undefined;
}

const serifFamilies =
  /\b(?:serif|georgia|times|garamond|baskerville|caslon|playfair|merriweather|lora|fraunces|libre baskerville|crimson|cormorant|dm serif|source serif|pt serif|noto serif|bodoni|didot|spectral)\b/i;

/** The generic family a stack falls back to, judged from its generic keyword or well-known serif faces. */
export function genericFamilyOf(stack: string): 'serif' | 'sans-serif' | 'monospace' {
  const lower = stack.toLowerCase();
  if (/\bmonospace\b|\bmono\b|courier|consolas|menlo/.test(lower)) return 'monospace';
  if (/sans-serif|\bsans\b/.test(lower)) return 'sans-serif';
  return serifFamilies.test(lower) ? 'serif' : 'sans-serif';
}
