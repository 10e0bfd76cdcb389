import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

const CHILD = join(import.meta.dirname, 'deliveryChild.ts');

export type Child = { child: ChildProcess; exited: Promise<number | null> };

/** Starts deliveryChild.ts and resolves once it says it is ready. */
export function startDeliveryChild(env: Record<string, string>): Promise<Child> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CHILD], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-4000);
    });
    child.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('ready')) resolve({ child, exited });
    });
    child.on('error', reject);
    void exited.then((code) =>
      reject(new Error(`the delivery child exited (${code}) before it was ready: ${stderr}`)),
    );
  });
}

export async function killHard(running: Child): Promise<void> {
  running.child.kill('SIGKILL');
  await running.exited;
}
