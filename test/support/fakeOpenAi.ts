/**
 * A local OpenAI-compatible server for tests: `POST /v1/chat/completions` answered from a script.
 *
 *   const fake = await startFakeOpenAi();
 *   fake.enqueue(reply.rateLimited({ retryAfter: '2' }), reply.object({ topics: [] }));
 *   const llm = createOpenAiLlm({ apiKey: 'test', baseURL: fake.baseURL, defaultModel: 'gpt-test' });
 *   ...
 *   expect(fake.requests[1].body.response_format.type).toBe('json_schema');
 *   await fake.close();
 *
 * Each request takes the next scripted response from the queue; when the queue is empty the
 * `respond` function (if given) answers, else the request fails with a 400 naming the problem, so
 * an unscripted call shows up in the test's error rather than hanging. Every request is recorded.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakeUsage = {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details?: { cached_tokens: number; audio_tokens: number };
  completion_tokens_details?: {
    reasoning_tokens: number;
    audio_tokens: number;
    accepted_prediction_tokens: number;
    rejected_prediction_tokens: number;
  };
};

export type ScriptedResponse =
  /** A chat completion whose message content is `content` (any text, valid JSON or not). */
  | {
      kind: 'completion';
      content: string | null;
      finishReason?: string;
      refusal?: string;
      usage?: FakeUsage;
      model?: string;
      headers?: Record<string, string>;
    }
  /** An OpenAI-style error body `{ error: { message, type, code } }` with the given status and headers. */
  | {
      kind: 'error';
      status: number;
      message: string;
      type?: string;
      code?: string | null;
      headers?: Record<string, string>;
    }
  /** Exactly these bytes, for testing what the SDK makes of a broken server. */
  | { kind: 'raw'; status: number; body: string; headers?: Record<string, string> }
  /** Never answers; the client's timeout has to fire. The socket closes with the server. */
  | { kind: 'hang' }
  /** Waits until `until` settles, then answers with `then` (holds requests open to observe concurrency). */
  | { kind: 'held'; until: Promise<unknown>; then: ScriptedResponse };

export type RecordedRequest = {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON body (`model`, `messages`, `response_format`, …). */
  body: any;
  /** Answered 429 for being over `concurrencyLimit`. */
  overLimit?: boolean;
  /** The `usage` block of the completion this request was answered with. */
  usage?: FakeUsage;
};

export type FakeOpenAi = {
  /** Pass as `baseURL` to the openai SDK: `http://127.0.0.1:<port>/v1`. */
  baseURL: string;
  /** The environment that points an Inkstream at this server, with `gpt-fake` as its default model. */
  env: { OPENAI_API_KEY: string; OPENAI_BASE_URL: string; INKSTREAM_DEFAULT_MODEL: string };
  requests: RecordedRequest[];
  /** Most requests open at the same moment so far. */
  readonly maxConcurrent: number;
  enqueue(...responses: ScriptedResponse[]): void;
  /** Responses still waiting in the queue. */
  readonly pending: number;
  /** Requests refused with 429 for being over `concurrencyLimit`. */
  readonly rateLimited: number;
  close(): Promise<void>;
};

/**
 * The usage block OpenAI sends, sized like its tokenizer would count (about 4 characters a token,
 * a few tokens of framing per message), for answers scripted without one.
 */
export function realisticUsage(requestBody: any, content: string | null): FakeUsage {
  const messages: { content?: unknown }[] = Array.isArray(requestBody?.messages)
    ? requestBody.messages
    : [];
  const promptChars = messages.reduce(
    (sum, message) => sum + (typeof message.content === 'string' ? message.content.length : 0),
    0,
  );
  const prompt_tokens = Math.ceil(promptChars / 4) + 4 * messages.length + 3;
  const completion_tokens = Math.max(1, Math.ceil((content ?? '').length / 4));
  return {
    prompt_tokens,
    completion_tokens,
    total_tokens: prompt_tokens + completion_tokens,
    prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: 0,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

/** Builders for the usual scripted responses. */
export const reply = {
  text: (
    content: string,
    extra: { usage?: FakeUsage; model?: string; finishReason?: string } = {},
  ): ScriptedResponse => ({ kind: 'completion', content, ...extra }),
  object: (
    value: unknown,
    extra: { usage?: FakeUsage; model?: string; headers?: Record<string, string> } = {},
  ): ScriptedResponse => ({ kind: 'completion', content: JSON.stringify(value), ...extra }),
  malformedJson: (content = '{"topics": [ {"title": "unterminated'): ScriptedResponse => ({
    kind: 'completion',
    content,
  }),
  refusal: (refusal: string): ScriptedResponse => ({ kind: 'completion', content: null, refusal }),
  rateLimited: (
    headers: { retryAfter?: string; retryAfterMs?: string } = {},
  ): ScriptedResponse => ({
    kind: 'error',
    status: 429,
    message: 'Rate limit reached for requests',
    type: 'requests',
    code: 'rate_limit_exceeded',
    headers: {
      ...(headers.retryAfter === undefined ? {} : { 'retry-after': headers.retryAfter }),
      ...(headers.retryAfterMs === undefined ? {} : { 'retry-after-ms': headers.retryAfterMs }),
    },
  }),
  serverError: (status = 500): ScriptedResponse => ({
    kind: 'error',
    status,
    message: 'The server had an error while processing your request.',
    type: 'server_error',
  }),
  /** What a server without structured output says to `response_format: { type: 'json_schema' }`. */
  jsonSchemaUnsupported: (): ScriptedResponse => ({
    kind: 'error',
    status: 400,
    message:
      "Invalid value for 'response_format.type': 'json_schema' is not supported by this server.",
    type: 'invalid_request_error',
    code: 'invalid_value',
  }),
  hang: (): ScriptedResponse => ({ kind: 'hang' }),
  held: (until: Promise<unknown>, then: ScriptedResponse): ScriptedResponse => ({
    kind: 'held',
    until,
    then,
  }),
};

export type FakeOpenAiOptions = {
  respond?: (request: RecordedRequest) => ScriptedResponse;
  /** Each answer leaves after this long, like a real model's generation time. */
  delayMs?: number;
  /** The provider's own limit: a completion request beyond `max` in flight is answered 429 with Retry-After. */
  concurrencyLimit?: { max: number; retryAfterMs: number };
};

export async function startFakeOpenAi(options: FakeOpenAiOptions = {}): Promise<FakeOpenAi> {
  const queue: ScriptedResponse[] = [];
  const requests: RecordedRequest[] = [];
  let open = 0;
  let maxConcurrent = 0;
  let completionSeq = 0;
  let answering = 0;
  let rateLimited = 0;

  async function answer(
    response: ScriptedResponse,
    request: RecordedRequest,
    res: ServerResponse,
  ): Promise<void> {
    switch (response.kind) {
      case 'hang':
        return;
      case 'held':
        await response.until.catch(() => undefined);
        return answer(response.then, request, res);
      case 'raw':
        res
          .writeHead(response.status, { 'content-type': 'application/json', ...response.headers })
          .end(response.body);
        return;
      case 'error':
        send(
          res,
          response.status,
          {
            error: {
              message: response.message,
              type: response.type ?? 'invalid_request_error',
              param: null,
              code: response.code ?? null,
            },
          },
          response.headers,
        );
        return;
      case 'completion':
        request.usage = response.usage ?? realisticUsage(request.body, response.content);
        send(
          res,
          200,
          {
            id: `chatcmpl-fake-${++completionSeq}`,
            object: 'chat.completion',
            created: 1_767_225_600,
            model: response.model ?? request.body?.model ?? 'fake-model',
            choices: [
              {
                index: 0,
                message: {
                  role: 'assistant',
                  content: response.content,
                  refusal: response.refusal ?? null,
                },
                logprobs: null,
                finish_reason: response.finishReason ?? 'stop',
              },
            ],
            usage: request.usage,
          },
          response.headers,
        );
        return;
      default: {
        const unknown: never = response;
        throw new Error(`unknown scripted response ${JSON.stringify(unknown)}`);
      }
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    let body: any;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      send(res, 400, {
        error: {
          message: 'fakeOpenAi: request body is not JSON',
          type: 'invalid_request_error',
          param: null,
          code: null,
        },
      });
      return;
    }
    const request: RecordedRequest = {
      method: req.method ?? '',
      path: req.url ?? '',
      headers: req.headers,
      body,
    };
    requests.push(request);
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      send(res, 404, {
        error: {
          message: `fakeOpenAi: no route ${req.method} ${req.url}`,
          type: 'invalid_request_error',
          param: null,
          code: null,
        },
      });
      return;
    }
    const limit = options.concurrencyLimit;
    if (limit && answering >= limit.max) {
      rateLimited++;
      request.overLimit = true;
      const seconds = String(Math.ceil(limit.retryAfterMs / 1000));
      send(
        res,
        429,
        {
          error: {
            message: 'Rate limit reached for requests',
            type: 'requests',
            param: null,
            code: 'rate_limit_exceeded',
          },
        },
        {
          'retry-after': seconds,
          'retry-after-ms': String(limit.retryAfterMs),
          'x-ratelimit-limit-requests': String(limit.max),
          'x-ratelimit-remaining-requests': '0',
        },
      );
      return;
    }
    answering++;
    try {
      if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
      await answerNext(request, res);
    } finally {
      answering--;
    }
  }

  async function answerNext(request: RecordedRequest, res: ServerResponse): Promise<void> {
    const scripted = queue.shift() ?? options.respond?.(request);
    if (!scripted) {
      send(res, 400, {
        error: {
          message: `fakeOpenAi: no scripted response left for request #${requests.indexOf(request) + 1}`,
          type: 'invalid_request_error',
          param: null,
          code: 'fake_unscripted',
        },
      });
      return;
    }
    await answer(scripted, request, res);
  }

  const server = createServer((req, res) => {
    open++;
    maxConcurrent = Math.max(maxConcurrent, open);
    res.on('close', () => {
      open--;
    });
    handle(req, res).catch((error) => {
      res.destroy(error);
    });
  });
  server.keepAliveTimeout = 1;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    env: {
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1`,
      INKSTREAM_DEFAULT_MODEL: 'gpt-fake',
    },
    requests,
    get maxConcurrent() {
      return maxConcurrent;
    },
    enqueue: (...responses) => {
      queue.push(...responses);
    },
    get pending() {
      return queue.length;
    },
    get rateLimited() {
      return rateLimited;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res
    .writeHead(status, { 'content-type': 'application/json', ...headers })
    .end(JSON.stringify(body));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
