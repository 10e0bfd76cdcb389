import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The longest files start first, so the run does not end with one worker busy on a browser file
 * while the other is idle. A file's last measured duration (vitest's results cache) is its weight;
 * a file never measured (a fresh clone, as on CI) is weighed by its kind.
 */
export class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const weights = new Map(files.map((file) => [file, this.weightOf(file)]));
    return [...files].sort(
      (a, b) => weights.get(b)! - weights.get(a)! || a.moduleId.localeCompare(b.moduleId),
    );
  }

  private weightOf(file: TestSpecification): number {
    const path = relative(this.ctx.config.root, file.moduleId);
    const measured = this.ctx.cache.getFileTestResults(`${file.project.name}:${path}`)?.duration;
    return measured ?? estimatedMs(path);
  }
}

/** Rough durations on a 2-core machine (docs/testing.md, "Test suite time"). */
export function estimatedMs(path: string): number {
  if (/^test\/web\/.*\.e2e\.test\.ts$/.test(path)) return 30_000; // Chromium, a server, several pages
  if (/^test\/cli\//.test(path) || /crash\.e2e\.test\.ts$/.test(path)) return 15_000; // child processes
  if (path.endsWith('e2e.test.ts')) return 5_000; // test/features/pipeline/e2e.test.ts too
  if (path.endsWith('.int.test.ts')) return 2_000;
  return 500;
}
