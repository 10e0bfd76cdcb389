import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';
import { SlowFirstSequencer } from './test/support/slowFirstSequencer.ts';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    // Both cores: the default leaves one idle on a 2-core machine (CI), and most files wait on
    // child processes, sockets or the browser rather than on their own CPU.
    maxWorkers: 2,
    // Each worker process runs file after file with one module cache: a fresh process per file
    // spent longer importing the service than most files spend testing it (docs/testing.md). Tests
    // that must see a fresh module cache start their own Node process (test/support/lazyLoad.ts).
    isolate: false,
    sequence: { sequencer: SlowFirstSequencer },
    // Child processes the tests start (the CLI, crash tests' servers) reuse compiled modules.
    env: { NODE_COMPILE_CACHE: join(tmpdir(), 'inkstream-test-compile-cache') },
    globalSetup: ['test/support/webBuild.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
