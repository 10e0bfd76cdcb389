import type { WrkResult } from './wrk.ts';

/** The benchmark project's TopicCreated events, read back from the log. */
export type LoggedTopics = {
  topics: { topicId: string; title: string }[];
  distinctEventIds: number;
};

/**
 * Every 201's topic is in the log, once; no request was decided twice (titles are unique per
 * request); and the only topics nobody was told about are the requests still in flight when wrk
 * stopped (at most one per connection and run: wrk closes them without reading the answer).
 */
export function checkExactlyOnce(runs: WrkResult[], logged: LoggedTopics, connections: number) {
  const acknowledged = runs.flatMap((run) => run.created);
  const answered = new Set(acknowledged);
  const inLog = new Set(logged.topics.map((topic) => topic.topicId));
  const responses201 = runs.reduce((sum, run) => sum + (run.statuses['201'] ?? 0), 0);
  const otherResponses = runs.reduce(
    (sum, run) => sum + run.requests - (run.statuses['201'] ?? 0) + run.errors.timeout,
    0,
  );
  const lost = acknowledged.filter((id) => !inLog.has(id)).length;
  const count = logged.topics.length;
  const duplicates =
    count -
    inLog.size +
    (count - new Set(logged.topics.map((topic) => topic.title)).size) +
    (count - logged.distinctEventIds) +
    (acknowledged.length - answered.size);
  const inFlightAtStop = logged.topics.filter((topic) => !answered.has(topic.topicId)).length;
  const ok =
    lost === 0 &&
    duplicates === 0 &&
    otherResponses === 0 &&
    responses201 === acknowledged.length &&
    inFlightAtStop <= connections * runs.length;
  return {
    exactlyOnce: ok,
    responses201,
    topicCreatedEvents: count,
    lost,
    duplicates,
    otherResponses,
    inFlightAtStop,
  };
}
