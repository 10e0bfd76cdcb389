import { describeActor } from '../features/audit/timeline.ts';
import { historyEntries } from '../features/audit/historyEntries.ts';
import { exportLog } from '../features/audit/exportLog.ts';
import { readStreamOrEmpty } from '../eventstore/readStreamOrEmpty.ts';
import { verifyLog } from '../features/audit/verifyLog.ts';
import { streamName } from '../eventstore/port.ts';
import type { Platform } from '../platform.ts';
import { createLogProgress } from './progress.ts';

const CATEGORY_BY_KIND: Record<string, string> = {
  article: 'article',
  topic: 'topic',
  project: 'project',
  account: 'account',
};

/** A readable timeline of one stream; `json` prints the same entries the history endpoint serves. */
export async function printHistory(
  platform: Platform,
  kind: string,
  id: string,
  json: boolean,
  print: (line: string) => void,
): Promise<void> {
  const category = CATEGORY_BY_KIND[kind];
  if (!category) throw new Error(`history takes article, topic, project or account, not ${kind}`);
  const events = await readStreamOrEmpty(platform.eventStore, streamName(category, id));
  if (events.length === 0) throw new Error(`No ${kind} ${id} in the log.`);
  const entries = await historyEntries(platform.eventStore, events);
  if (json) return print(JSON.stringify(entries));
  for (const entry of entries) {
    const generation = entry.generation
      ? `  [${entry.generation.provider}${entry.generation.model ? `/${entry.generation.model}` : ''}]`
      : '';
    const status = typeof entry.data.step === 'string' ? `  step=${entry.data.step}` : '';
    const reason = typeof entry.data.reason === 'string' ? `  reason="${entry.data.reason}"` : '';
    print(
      `#${String(entry.revision).padStart(4)}  ${entry.at}  ${entry.type.padEnd(28)}  ${describeActor(entry.actor)}${generation}${status}${reason}`,
    );
  }
}

export async function runExport(
  platform: Platform,
  options: { stream?: string; from?: string },
): Promise<{ events: number; sha256: string }> {
  const fromPosition = options.from === undefined ? undefined : BigInt(options.from);
  const progress = createLogProgress('exporting', {
    from: fromPosition === undefined ? undefined : fromPosition - 1n,
    head: await platform.eventStore.headPosition(),
  });
  const result = await exportLog(platform.eventStore, process.stdout, {
    stream: options.stream,
    fromPosition,
    onProgress: (done, position) => progress.update(done, position),
  });
  progress.finish(result.events);
  process.stderr.write(`exported ${result.events} events, sha256 ${result.sha256}\n`);
  return result;
}

export async function runVerify(
  platform: Platform,
  print: (line: string) => void,
): Promise<boolean> {
  const progress = createLogProgress('verifying', {
    head: await platform.eventStore.headPosition(),
  });
  const report = await verifyLog(platform.eventStore, {
    gapless: platform.storeKinds.events === 'sqlite',
    onProgress: (done, position) => progress.update(done, position),
  });
  progress.finish(report.events);
  print(
    `${report.events} events in ${report.streams} streams, positions ${report.firstPosition ?? '-'}…${report.lastPosition ?? '-'}`,
  );
  if (report.problems.length === 0)
    print(
      'OK: positions in order' +
        (platform.storeKinds.events === 'sqlite' ? ' and gapless' : '') +
        ', revisions contiguous, no duplicate ids.',
    );
  for (const problem of report.problems) print(`PROBLEM: ${problem}`);
  return report.problems.length === 0;
}
