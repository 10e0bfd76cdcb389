import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { z } from 'zod';
import { isValidSecretKey } from './secretBox.ts';

const flag = z
  .enum(['0', '1', 'true', 'false'])
  .transform((value) => value === '1' || value === 'true');

/** An entry of INKSTREAM_TRUSTED_PROXIES: `10.0.0.1`, `10.0.0.0/8`, `fd00::/8`. */
function isAddressOrSubnet(entry: string): boolean {
  const [address, prefix, extra] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || extra !== undefined) return false;
  return (
    prefix === undefined || (/^\d+$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128))
  );
}

/** A whole number of zero or more; unset or empty: not set. */
const optionalCount = z.preprocess(
  (value) => (value === '' ? undefined : value),
  z.coerce.number().int().min(0).optional(),
);

const Env = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  EVENTSTORE_URL: z.string().startsWith('esdb').optional(),
  MONGODB_URL: z.string().startsWith('mongodb').optional(),
  /** The key that seals stored secrets (32 bytes, base64 or hex); required with the production stores. */
  INKSTREAM_SECRET_KEY: z
    .string()
    .optional()
    .refine(
      (text) => !text || isValidSecretKey(text),
      'must be 32 bytes, base64 or hex encoded (generate one with: openssl rand -base64 32)',
    ),
  /** Keys rotated out, separated by commas: they still open what they sealed, never seal. */
  INKSTREAM_SECRET_KEYS_RETIRED: z
    .string()
    .optional()
    .refine(
      (text) =>
        !text ||
        text
          .split(',')
          .map((part) => part.trim())
          .filter(Boolean)
          .every(isValidSecretKey),
      'each key must be 32 bytes, base64 or hex encoded, separated by commas',
    ),
  INKSTREAM_PLANS_FILE: z.string().optional(),
  INKSTREAM_DEFAULT_PLAN: z.enum(['free', 'pro', 'unlimited']).default('unlimited'),
  INKSTREAM_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(120),
  INKSTREAM_ALLOW_PRIVATE_URLS: flag.default(false),
  INKSTREAM_WEBHOOK_RETRY_DELAYS: z.string().optional(),
  INKSTREAM_WEBHOOK_TIMEOUT_MS: z.coerce.number().int().positive().max(60_000).default(15_000),
  /** Webhook deliveries (and, separately, post-publish hook calls) in flight per receiver origin, across endpoints. */
  INKSTREAM_WEBHOOK_CONCURRENCY_PER_ORIGIN: z.coerce
    .number()
    .int()
    .positive()
    .max(1000)
    .default(16),
  /** Crawl requests in flight per site origin, across every crawl of the process. */
  INKSTREAM_CRAWL_CONCURRENCY_PER_ORIGIN: z.coerce.number().int().positive().max(100).default(4),
  /** Steps each pipeline process manager runs at once, shared round-robin between projects. */
  INKSTREAM_PIPELINE_SLOTS: z.coerce.number().int().positive().max(1000).default(32),
  /** Events a pipeline process manager takes past its checkpoint (the low-water mark) before waiting. */
  INKSTREAM_PIPELINE_LOOKAHEAD: z.coerce.number().int().positive().max(100_000).default(500),
  INKSTREAM_PUBLIC_URL: z.string().url().optional(),
  OPENAI_API_KEY: z.string().optional(),
  OPENAI_BASE_URL: z.string().url().optional(),
  INKSTREAM_DEFAULT_MODEL: z.string().default('gpt-4o-mini'),
  /** Models a project may choose, comma-separated; the default model is always allowed. */
  INKSTREAM_ALLOWED_MODELS: z
    .string()
    .optional()
    .transform((text) =>
      text === undefined
        ? undefined
        : text
            .split(',')
            .map((name) => name.trim())
            .filter(Boolean),
    ),
  /** Model provider limits (docs/llm.md, "Provider limits"); unset: the defaults of integrations/llm/select.ts. */
  INKSTREAM_LLM_TIMEOUT_MS: optionalCount,
  INKSTREAM_LLM_MAX_RETRIES: optionalCount,
  INKSTREAM_LLM_CONCURRENCY: optionalCount,
  INKSTREAM_LLM_REQUESTS_PER_MINUTE: optionalCount,
  /** A TTF/OTF file for the cover titles instead of the built-in stroke font. */
  INKSTREAM_COVER_FONT: z.string().optional(),
  // Model cost (docs/llm.md, "Cost and budgets"): prices over the built-in table, as a JSON object
  // of model → { input, output } USD per million tokens, inline or in a file; and a provider's
  // tokens per minute (unset: no cap).
  INKSTREAM_LLM_PRICES: z.string().optional(),
  INKSTREAM_LLM_PRICES_FILE: z.string().optional(),
  INKSTREAM_LLM_TOKENS_PER_MINUTE: optionalCount,
  GITHUB_API_URL: z.string().url().default('https://api.github.com'),
  SEARCH_CONSOLE_API_URL: z.string().url().default('https://searchconsole.googleapis.com/'),
  GOOGLE_OAUTH_TOKEN_URL: z.string().url().default('https://oauth2.googleapis.com/token'),
  INKSTREAM_SEARCH_RETRY_DELAYS_MS: z
    .string()
    .regex(/^\d+(,\d+)*$/, 'milliseconds separated by commas, e.g. 2000,10000,30000')
    .default('2000,10000,30000,60000')
    .transform((text) => text.split(',').map(Number)),
  INKSTREAM_READ_WAIT_MS: z.coerce.number().int().min(0).default(2000),
  /** How long the background lease lasts without renewal before another process takes over. */
  INKSTREAM_LEASE_TTL_MS: z.coerce.number().int().min(300).default(15_000),
  // Request hygiene (docs/http.md): how long a client may take to send a request, and how many
  // connections one client address may hold open (0: no cap).
  INKSTREAM_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  INKSTREAM_BODY_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  INKSTREAM_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).default(30_000),
  INKSTREAM_CONNECTIONS_PER_ADDRESS: z.coerce.number().int().min(0).default(256),
  // The live stream (docs/live.md): open streams per account, the heartbeat (and credential check)
  // interval, and the bytes a stream may have waiting for a slow reader before it is dropped.
  INKSTREAM_LIVE_STREAMS_PER_ACCOUNT: z.coerce.number().int().min(1).default(50),
  INKSTREAM_LIVE_HEARTBEAT_MS: z.coerce.number().int().min(100).default(15_000),
  INKSTREAM_LIVE_BUFFER_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(256 * 1024),
  INKSTREAM_TRUSTED_PROXIES: z
    .string()
    .default('')
    .transform((text) =>
      text
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean),
    )
    .pipe(
      z.array(
        z
          .string()
          .refine(
            isAddressOrSubnet,
            'IP addresses or CIDR subnets separated by commas, e.g. 10.0.0.0/8,127.0.0.1',
          ),
      ),
    ),
  // One tenant against another (docs/security.md): how far back a live stream resumes from the
  // store beyond the log tail (events), open streams per credential and per member, and the
  // /app/api requests per minute per session and member (an address gets five times as many).
  INKSTREAM_LIVE_RESUME_EVENTS: z.coerce.number().int().min(0).default(10_000),
  INKSTREAM_LIVE_STREAMS_PER_CREDENTIAL: z.coerce.number().int().min(1).default(10),
  INKSTREAM_LIVE_STREAMS_PER_MEMBER: z.coerce.number().int().min(1).default(20),
  INKSTREAM_APP_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(120),
});

export type Config = z.infer<typeof Env> & { dataDir: string };

/** Typed configuration from the environment; a bad value stops the start with a clear message. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = Env.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .map((issue) => `${issue.path.join('.')}: ${issue.message}`)
      .join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  requireSharedSecretKey(parsed.data);
  return { ...parsed.data, dataDir: resolve(parsed.data.DATA_DIR) };
}

/**
 * With the production stores the log is shared by every replica and outlives any one volume, so
 * the key that opens its sealed secrets must come from the deployment, not a file one replica
 * generated. Checked before any store is opened.
 */
function requireSharedSecretKey(env: z.infer<typeof Env>): void {
  if (!(env.EVENTSTORE_URL || env.MONGODB_URL) || env.INKSTREAM_SECRET_KEY) return;
  const stores = [env.EVENTSTORE_URL && 'EVENTSTORE_URL', env.MONGODB_URL && 'MONGODB_URL']
    .filter(Boolean)
    .join(' and ');
  throw new Error(
    `Invalid configuration: INKSTREAM_SECRET_KEY is required when ${stores} ${stores.includes(' and ') ? 'are' : 'is'} set, ` +
      'so that every replica opens the same stored secrets. Generate one with `openssl rand -base64 32`, keep it with your other secrets, and give the same value to every replica and CLI run.',
  );
}
