/**
 * robots.txt as RFC 9309 defines it: groups of user-agent lines with Allow/Disallow rules; the
 * groups naming our product token apply (merged), else the "*" groups; the longest matching
 * pattern wins and Allow wins a tie; "*" matches any run of characters and "$" ends a pattern.
 */
export type RobotsRule = { allow: boolean; pattern: string };
export type RobotsGroup = { agents: string[]; rules: RobotsRule[]; crawlDelaySeconds?: number };
export type Robots = { groups: RobotsGroup[]; sitemaps: string[] };

// Paths from URL objects are percent-encoded with upper-case hex; patterns are made to look alike.
const encodeLikeUrls = (pattern: string) =>
  pattern
    .replace(/[^\x00-\x7f]+/gu, (chars) => encodeURIComponent(chars))
    .replace(/%[0-9a-f]{2}/gi, (escape) => escape.toUpperCase());

export function parseRobots(text: string): Robots {
  const groups: RobotsGroup[] = [];
  const sitemaps: string[] = [];
  let current: RobotsGroup | undefined;
  let lastWasAgent = false;
  for (const rawLine of text.split(/\r\n|\r|\n/)) {
    const line = rawLine.replace(/#.*$/, '').trim();
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const key = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (key === 'user-agent') {
      if (!current || !lastWasAgent) groups.push((current = { agents: [], rules: [] }));
      current.agents.push(value.toLowerCase());
      lastWasAgent = true;
      continue;
    }
    lastWasAgent = false;
    if (key === 'sitemap' && value) sitemaps.push(value);
    else if (key === 'crawl-delay' && current) {
      const seconds = Number(value);
      if (Number.isFinite(seconds) && seconds >= 0) current.crawlDelaySeconds = seconds;
    } else if ((key === 'allow' || key === 'disallow') && current && value) {
      current.rules.push({ allow: key === 'allow', pattern: encodeLikeUrls(value) });
    }
  }
  return { groups, sitemaps };
}

const productToken = (agent: string) => agent.split('/')[0].trim();

/** The rules that apply to a crawler calling itself `token`. */
export function rulesFor(robots: Robots, token: string): RobotsRule[] {
  const name = token.toLowerCase();
  const own = robots.groups.filter((group) =>
    group.agents.some((agent) => productToken(agent) === name),
  );
  const chosen = own.length > 0 ? own : robots.groups.filter((group) => group.agents.includes('*'));
  return chosen.flatMap((group) => group.rules);
}

const toRegExp = (pattern: string): RegExp => {
  const anchored = pattern.endsWith('$');
  const body = (anchored ? pattern.slice(0, -1) : pattern)
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${body}${anchored ? '$' : ''}`);
};

/**
 * The pause between two requests the groups that apply to `token` ask for (Crawl-delay, not part
 * of RFC 9309 but widely honoured), in seconds, capped at `maxSeconds`; 0 when none asks.
 */
export function crawlDelayFor(robots: Robots, token: string, maxSeconds = 60): number {
  const name = token.toLowerCase();
  const own = robots.groups.filter((group) =>
    group.agents.some((agent) => productToken(agent) === name),
  );
  const chosen = own.length > 0 ? own : robots.groups.filter((group) => group.agents.includes('*'));
  const delays = chosen.map((group) => group.crawlDelaySeconds ?? 0);
  return Math.min(maxSeconds, Math.max(0, ...delays));
}

/** Whether a path (with its query) may be fetched under these rules. */
export function isAllowed(rules: readonly RobotsRule[], pathAndQuery: string): boolean {
  if (pathAndQuery === '/robots.txt') return true;
  let best: RobotsRule | undefined;
  for (const rule of rules) {
    if (!toRegExp(rule.pattern).test(pathAndQuery)) continue;
    if (
      !best ||
      rule.pattern.length > best.pattern.length ||
      (rule.pattern.length === best.pattern.length && rule.allow)
    )
      best = rule;
  }
  return best?.allow ?? true;
}
