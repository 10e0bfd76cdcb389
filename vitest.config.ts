import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    // Both cores: the default leaves one idle on a 2-core machine (CI), and most files wait on
    // child processes, sockets or the browser rather than on their own CPU.
    maxWorkers: 2,
    globalSetup: ['test/support/webBuild.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
