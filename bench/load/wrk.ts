import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The load generator is wrk (C, epoll): a JavaScript client on the same 2 cores spent most of a
 * core on itself, capping the bare server and starving the one under test.
 */
export type WrkResult = {
  requests: number;
  seconds: number;
  requestsPerSecond: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number };
  /** Socket errors, responses ≥ 400 (`status`) and requests that outlived wrk's timeout (not in the latencies). */
  errors: { connect: number; read: number; write: number; status: number; timeout: number };
  /** Per status, for scripts that read responses (createTopics.lua). */
  statuses: Record<string, number>;
  /** Topic ids of the 201s, for createTopics.lua. */
  created: string[];
};

type Raw = Omit<WrkResult, 'seconds' | 'requestsPerSecond' | 'latencyMs'> & {
  durationUs: number;
  latencyUs: WrkResult['latencyMs'];
};

/** Exits the process with install instructions when wrk is not on PATH. */
export function requireWrk(): string {
  const probe = spawnSync('wrk', ['--version'], { encoding: 'utf8' });
  if ((probe.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') {
    console.error(
      'This benchmark drives its load with wrk, which is not on PATH. Install it:\n  Debian/Ubuntu: sudo apt-get install wrk\n  macOS: brew install wrk',
    );
    process.exit(2);
  }
  return probe.stdout
    .split('\n')[0]
    .replace(/\s*Copyright.*$/, '')
    .trim();
}

const luaPart = (name: string) => readFileSync(new URL(`./${name}`, import.meta.url), 'utf8');

/** Closed loop: `connections` keep-alive connections on one wrk thread, each with one request in flight. */
export async function runWrk(options: {
  url: string;
  connections: number;
  seconds: number;
  headers: Record<string, string>;
  /** A Lua file beside this one that builds the requests (createTopics.lua); plain GETs without. */
  script?: string;
  scriptArgs?: string[];
}): Promise<WrkResult> {
  const dir = mkdtempSync(join(tmpdir(), 'ink-wrk-'));
  try {
    const scriptPath = join(dir, 'bench.lua');
    writeFileSync(
      scriptPath,
      (options.script ? luaPart(options.script) : '') + luaPart('report.lua'),
    );
    const args = [
      '-t1',
      `-c${options.connections}`,
      `-d${options.seconds}s`,
      '--latency',
      '--timeout',
      '10s',
      '-s',
      scriptPath,
      ...Object.entries(options.headers).flatMap(([name, value]) => ['-H', `${name}: ${value}`]),
      options.url,
      ...(options.scriptArgs ? ['--', ...options.scriptArgs] : []),
    ];
    const output = await new Promise<string>((resolve, reject) => {
      const child = spawn('wrk', args, { stdio: ['ignore', 'pipe', 'inherit'] });
      let stdout = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        stdout += chunk;
      });
      child.on('error', reject);
      child.on('exit', (code) =>
        code === 0 ? resolve(stdout) : reject(new Error(`wrk exited with ${code}:\n${stdout}`)),
      );
    });
    const line = output.split('\n').find((text) => text.startsWith('WRK_RESULT '));
    if (!line) throw new Error(`wrk printed no result:\n${output}`);
    const raw = JSON.parse(line.slice('WRK_RESULT '.length)) as Raw;
    const seconds = raw.durationUs / 1e6;
    const ms = (us: number) => Math.round(us / 10) / 100;
    return {
      requests: raw.requests,
      seconds: Math.round(seconds * 100) / 100,
      requestsPerSecond: Math.round(raw.requests / seconds),
      latencyMs: {
        p50: ms(raw.latencyUs.p50),
        p90: ms(raw.latencyUs.p90),
        p99: ms(raw.latencyUs.p99),
        max: ms(raw.latencyUs.max),
      },
      errors: raw.errors,
      statuses: raw.statuses,
      created: raw.created,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
