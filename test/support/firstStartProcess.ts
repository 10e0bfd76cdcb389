import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

const MAIN = join(import.meta.dirname, '../../src/main.ts');

/**
 * `npm start` as a user runs it, on a fresh DATA_DIR: resolves with its URL and everything it
 * printed before listening (the first start's key and owner link). `killAll` ends what was started.
 */
export function firstStartProcesses(): {
  start(dataDir: string, env?: Record<string, string>): Promise<{ url: string; printed: string }>;
  killAll(): void;
} {
  const children: ChildProcess[] = [];
  return {
    start: (dataDir, env = {}) =>
      new Promise((resolve, reject) => {
        const child = spawn(process.execPath, [MAIN], {
          env: {
            ...process.env,
            DATA_DIR: dataDir,
            PORT: '0',
            HOST: '127.0.0.1',
            LOG_LEVEL: 'info',
            ...env,
          },
          stdio: ['ignore', 'pipe', 'inherit'],
        });
        children.push(child);
        let out = '';
        child.stdout!.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const url = /"url":"(http:\/\/127\.0\.0\.1:\d+)"/.exec(out)?.[1];
          if (url) resolve({ url, printed: out });
        });
        child.on('error', reject);
        child.on('exit', (code) => reject(new Error(`exited with ${code} before listening`)));
      }),
    killAll() {
      for (const child of children.splice(0)) child.kill('SIGKILL');
    },
  };
}
