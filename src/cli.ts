import { parseArgs } from 'node:util';
import {
  createApiKey,
  listApiKeys,
  revokeApiKey,
  rotateApiKey,
  setAccountPlan,
} from './features/accounts/keys.ts';
import { PLAN_NAMES, type PlanName } from './domain/accounts/plans.ts';
import { budgetFromOptions, setAccountBudget } from './features/accounts/budget.ts';
import { cliActor } from './cli/actor.ts';
import { printHistory, runExport, runVerify } from './cli/audit.ts';
import { runBackup, runRestore } from './cli/backup.ts';
import { memberCommands } from './cli/members.ts';
import { rebuildProjections } from './cli/rebuild.ts';
import { printSecretsStatus, secretsStatus } from './cli/secrets.ts';
import { loadConfig } from './core/config.ts';
import { loadEnvFileOfWorkingDirectory } from './app/envFile.ts';
import { isAppError } from './core/errors.ts';
import { createLogger } from './core/logger.ts';
import type { Platform } from './platform.ts';
import { createPlatform } from './app/platform.ts';
import { createStoreConnection } from './app/storeConnection.ts';
import { openStores } from './app/stores.ts';

const USAGE = `inkstream — admin commands (they work while the server runs, on the same DATA_DIR / EVENTSTORE_URL,
read from the environment or from a .env file in the working directory)

  inkstream init                   create a new, empty store (other commands only open an existing one)
  inkstream keys create --account <name> [--plan free|pro|unlimited] [--name <label>] [--json]
  inkstream keys list --account <name> [--json]
  inkstream keys rotate <keyId> [--json]
  inkstream keys revoke <keyId>
  inkstream accounts set-plan <name> <plan>
  inkstream accounts budget --account <name> --usd <dollars>|--tokens <count>|--none   monthly cap on model use (docs/llm.md)
  inkstream members invite --account <name> --email <address> [--role owner|editor|viewer] [--name <name>]   prints a one-time invite link
  inkstream members reset-password --account <name> --email <address>   prints a one-time link to set a new password
  inkstream projections rebuild [name]   beside the running server, which goes on answering
  inkstream history article|topic|project <id> [--json]
  inkstream events export [--stream <name>] [--from <position>] > file.ndjson
  inkstream events verify
  inkstream backup <file>          a consistent copy of the embedded store (and its secret key) while the server runs
  inkstream restore <file>         put a backup back into DATA_DIR (the server stopped)
  inkstream secrets status [--json]      which stored secrets still need a retired key (docs/secrets.md)
`;

type Command = (platform: Platform, args: string[]) => Promise<void>;

const print = (line: string) => process.stdout.write(`${line}\n`);

function options<T extends Record<string, { type: 'string' } | { type: 'boolean' }>>(
  args: string[],
  spec: T,
) {
  return parseArgs({ args, options: spec, allowPositionals: true, strict: true });
}

function planArg(value: string | undefined): PlanName | undefined {
  if (value === undefined) return undefined;
  if (!(PLAN_NAMES as readonly string[]).includes(value))
    throw new Error(`Unknown plan ${value}; plans: ${PLAN_NAMES.join(', ')}`);
  return value as PlanName;
}

function printIssued(
  issued: { id: string; key: string; account: string },
  json: boolean | undefined,
  verb: string,
) {
  if (json)
    return print(JSON.stringify({ id: issued.id, key: issued.key, account: issued.account }));
  print(
    `${verb} API key ${issued.id} for account "${issued.account}". It is shown only now; store it safely:\n\n  ${issued.key}\n`,
  );
}

const commands: Record<string, Command> = {
  async init(platform) {
    const head = await platform.eventStore.headPosition();
    if (head >= 0n) print('This store already exists and holds events; nothing was changed.');
    else
      print(
        'Created a new, empty store. `npm start` serves it; its first start prints the API key of the account "default".',
      );
  },
  async 'keys create'(platform, args) {
    const { values } = options(args, {
      account: { type: 'string' },
      plan: { type: 'string' },
      name: { type: 'string' },
      json: { type: 'boolean' },
    });
    if (!values.account) throw new Error('keys create needs --account <name>');
    printIssued(
      await createApiKey(platform, {
        account: values.account,
        plan: planArg(values.plan),
        name: values.name,
        actor: cliActor(),
      }),
      values.json,
      'Created',
    );
  },
  async 'keys list'(platform, args) {
    const { values } = options(args, { account: { type: 'string' }, json: { type: 'boolean' } });
    if (!values.account) throw new Error('keys list needs --account <name>');
    const keys = await listApiKeys(platform, values.account);
    if (values.json) {
      print(JSON.stringify(keys.map(({ hash: _hash, ...key }) => key)));
      return;
    }
    if (keys.length === 0) {
      print(`No keys for account "${values.account}".`);
      return;
    }
    for (const key of keys)
      print(
        `${key.id}  ${key.prefix}…  ${key.name}  created ${key.createdAt}${key.revokedAt ? `  revoked ${key.revokedAt}` : '  active'}`,
      );
  },
  async 'keys rotate'(platform, args) {
    const { values, positionals } = options(args, { json: { type: 'boolean' } });
    if (!positionals[0]) throw new Error('keys rotate needs <keyId>');
    printIssued(
      await rotateApiKey(platform, positionals[0], { actor: cliActor() }),
      values.json,
      `Rotated ${positionals[0]} (now revoked); new`,
    );
  },
  async 'keys revoke'(platform, args) {
    const { positionals } = options(args, {});
    if (!positionals[0]) throw new Error('keys revoke needs <keyId>');
    await revokeApiKey(platform, positionals[0], { actor: cliActor() });
    print(`Revoked ${positionals[0]}: it gets 401 from now on.`);
  },
  async 'accounts set-plan'(platform, args) {
    const { positionals } = options(args, {});
    const plan = planArg(positionals[1]);
    if (!positionals[0] || !plan) throw new Error('accounts set-plan needs <name> <plan>');
    await setAccountPlan(platform, positionals[0], plan, cliActor());
    print(`Account "${positionals[0]}" is now on the ${plan} plan.`);
  },
  async 'accounts budget'(platform, args) {
    const { values } = options(args, {
      account: { type: 'string' },
      usd: { type: 'string' },
      tokens: { type: 'string' },
      none: { type: 'boolean' },
    });
    if (!values.account) throw new Error('accounts budget needs --account <name>');
    const budget = budgetFromOptions(values);
    await setAccountBudget(platform, values.account, budget, cliActor());
    const what =
      budget === null
        ? 'no monthly budget'
        : 'usd' in budget
          ? `a monthly budget of ${budget.usd} USD (estimated)`
          : `a monthly budget of ${budget.tokens} tokens`;
    print(
      `Account "${values.account}" now has ${what}; articles waiting for its budget are checked again.`,
    );
  },
  async 'projections rebuild'(platform, args) {
    const { positionals, values } = options(args, { force: { type: 'boolean' } });
    // Scripts written for the in-place rebuild passed --force beside a running server; it is not needed now.
    if (values.force)
      process.stderr.write(
        '--force is no longer needed: the rebuild runs beside a running server.\n',
      );
    const result = await rebuildProjections(platform, positionals[0], {
      onBesideServer: (note) => process.stderr.write(`${note}\n`),
    });
    print(
      `Rebuilt from ${result.events} events in ${result.seconds.toFixed(2)} s (${Math.round(result.rate)} events/s).`,
    );
  },
  async 'history article'(platform, args) {
    await history(platform, 'article', args);
  },
  async 'history topic'(platform, args) {
    await history(platform, 'topic', args);
  },
  async 'history project'(platform, args) {
    await history(platform, 'project', args);
  },
  async 'events export'(platform, args) {
    const { values } = options(args, { stream: { type: 'string' }, from: { type: 'string' } });
    if (values.from !== undefined && !/^\d+$/.test(values.from))
      throw new Error('--from takes a log position (a whole number)');
    await runExport(platform, { stream: values.stream, from: values.from });
  },
  async 'events verify'(platform) {
    if (!(await runVerify(platform, print))) process.exitCode = 3;
  },
  async backup(platform, args) {
    const { positionals } = options(args, {});
    if (!positionals[0]) throw new Error('backup needs <file>');
    await runBackup(platform, positionals[0], print);
  },
  async 'secrets status'(platform, args) {
    const { values } = options(args, { json: { type: 'boolean' } });
    const status = await secretsStatus(platform);
    if (values.json) print(JSON.stringify(status));
    else printSecretsStatus(status, print);
  },
  ...memberCommands,
};

/** Restore opens no store through the platform: the store may be gone, and it must not be in use. */
async function restore(args: string[]): Promise<number> {
  try {
    const { positionals } = options(args, {});
    if (!positionals[0]) throw new Error('restore needs <file>');
    loadEnvFileOfWorkingDirectory();
    await runRestore(loadConfig(), positionals[0], print);
    return 0;
  } catch (error) {
    process.stderr.write(failure(error));
    return 1;
  }
}

async function history(platform: Platform, kind: string, args: string[]) {
  const { values, positionals } = options(args, { json: { type: 'boolean' } });
  if (!positionals[0]) throw new Error(`history ${kind} needs <id>`);
  await printHistory(platform, kind, positionals[0], values.json ?? false, print);
}

const failure = (error: unknown) =>
  `inkstream: ${isAppError(error) || error instanceof Error ? error.message : String(error)}\n`;

async function main(argv: string[]): Promise<number> {
  if (argv[0] === 'restore') return restore(argv.slice(1));
  const words = commands[argv.slice(0, 2).join(' ')] ? 2 : 1;
  const name = argv.slice(0, words).join(' ');
  const command = commands[name];
  if (!command) {
    process.stderr.write(
      argv.length && argv[0] !== 'help' && argv[0] !== '--help'
        ? `Unknown command: ${argv.join(' ')}\n\n${USAGE}`
        : USAGE,
    );
    return argv.length && argv[0] !== 'help' && argv[0] !== '--help' ? 2 : 0;
  }
  let platform: Platform;
  try {
    platform = await openForCommand(name);
  } catch (error) {
    process.stderr.write(failure(error));
    return 1;
  }
  try {
    await command(platform, argv.slice(words));
    return Number(process.exitCode ?? 0);
  } catch (error) {
    process.stderr.write(failure(error));
    return 1;
  } finally {
    await platform.close();
  }
}

/** An admin command waits this long for an unreachable store, then says so (the server waits as long as it takes). */
const CLI_STORE_WAIT_MS = 30_000;

/** Only `init` may create a store; every command says on stderr which store it opened, so --json output stays clean. */
async function openForCommand(name: string): Promise<Platform> {
  const envFile = loadEnvFileOfWorkingDirectory();
  const config = loadConfig();
  const logger = createLogger(process.env.LOG_LEVEL ?? 'warn');
  const connection = createStoreConnection({
    giveUpAfterMs: CLI_STORE_WAIT_MS,
    onRetry: (what, error, delayMs) =>
      process.stderr.write(
        `inkstream: ${what} not reachable yet (${(error as Error).message}); trying again in ${delayMs} ms\n`,
      ),
  });
  const stores = await connection.establish('the store', () =>
    openStores(config, (message) => logger.warn({ message }, 'WAL checkpoint failed'), {
      create: name === 'init',
    }),
  );
  try {
    const platform = await createPlatform(config, logger, { stores, connection });
    const where =
      stores.where.events === stores.where.reads
        ? stores.where.events
        : `${stores.where.events}, read models in ${stores.where.reads}`;
    process.stderr.write(
      `inkstream: store ${where}${envFile ? ` (configured by ${envFile} and the environment)` : ''}\n`,
    );
    return platform;
  } catch (error) {
    await stores.close();
    throw error;
  }
}

process.exitCode = await main(process.argv.slice(2));
