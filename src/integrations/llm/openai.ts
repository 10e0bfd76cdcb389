import OpenAI, { APIError } from 'openai';
import type {
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import { countAnswer, countRequest } from './callMeter.ts';
import { parseJsonReply } from './jsonText.ts';
import { toResponseSchema } from './jsonSchema.ts';
import { isResponseFormatRejection, toLlmError } from './openaiErrors.ts';
import { addUsage, LlmError, zeroUsage } from './port.ts';
import type {
  GenerateObjectRequest,
  GenerateObjectResult,
  GenerateTextRequest,
  GenerateTextResult,
  LlmPort,
  TokenUsage,
} from './port.ts';
import { backoffDelayMs, realSleep, retryAfterMs } from './retry.ts';
import type { Sleep } from './retry.ts';
import { createSemaphore } from './semaphore.ts';
import { isTemperatureRejection, refusesTemperature } from './temperature.ts';
import { isTokenLimitRejection, otherTokenLimitParam, tokenLimitParamFor } from './tokenCaps.ts';
import type { TokenLimitParam } from './tokenCaps.ts';

export type OpenAiLlmOptions = {
  apiKey: string;
  /** Any OpenAI-compatible server (vLLM, Ollama, LM Studio); defaults to api.openai.com. */
  baseURL?: string;
  defaultModel: string;
  timeoutMs?: number;
  /** Retries after the first attempt, on 429, 5xx, timeouts and connection errors. */
  maxRetries?: number;
  concurrency?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** A server asking us to wait longer than this gets a retryable error instead of a blocked worker. */
  maxRetryAfterMs?: number;
  sleep?: Sleep;
  random?: () => number;
  nowMs?: () => number;
  onRetry?: (info: { attempt: number; delayMs: number; error: LlmError }) => void;
  /** The headers of each answer, for the provider limit to read the rate-limit budget left. */
  onResponseHeaders?: (headers: Headers) => void;
};

/** How the answer's shape is requested: servers without json_schema fall back down this list. */
type Mode = 'json_schema' | 'json_object' | 'text';
const FALLBACK: Record<Mode, Mode | undefined> = {
  json_schema: 'json_object',
  json_object: 'text',
  text: undefined,
};

type Reply = {
  content: string;
  refusal: string | null;
  finishReason: string;
  usage: TokenUsage;
  model: string;
};

export function createOpenAiLlm(options: OpenAiLlmOptions): LlmPort {
  const baseURL = options.baseURL ?? 'https://api.openai.com/v1';
  const timeoutMs = options.timeoutMs ?? 120_000;
  const maxRetries = options.maxRetries ?? 4;
  const maxRetryAfterMs = options.maxRetryAfterMs ?? 60_000;
  const policy = {
    baseDelayMs: options.baseDelayMs ?? 500,
    maxDelayMs: options.maxDelayMs ?? 20_000,
    random: options.random ?? Math.random,
  };
  const sleep = options.sleep ?? realSleep;
  const nowMs = options.nowMs ?? Date.now;
  const client = new OpenAI({ apiKey: options.apiKey, baseURL, timeout: timeoutMs, maxRetries: 0 });
  const semaphore = createSemaphore(options.concurrency ?? 4);
  const modeByModel = new Map<string, Mode>(); // remembers which format each model's server accepted
  const tokenParamByModel = new Map<string, TokenLimitParam>(); // and which token-limit field it reads
  const refusedTemperature = new Set<string>(); // and which models' servers refused a temperature

  /** Every call carries its token cap, in the field this model's server reads, and a temperature only where one is accepted. */
  async function complete(
    request: ChatCompletionCreateParamsNonStreaming,
    maxOutputTokens: number,
  ): Promise<Reply> {
    let param = tokenParamByModel.get(request.model) ?? tokenLimitParamFor(baseURL);
    let switched = false;
    for (let attempt = 0; ; attempt++) {
      const { temperature, ...rest } = request;
      const sendTemperature =
        temperature != null &&
        !refusesTemperature(request.model) &&
        !refusedTemperature.has(request.model);
      const body = {
        ...rest,
        ...(sendTemperature ? { temperature } : {}),
        [param]: maxOutputTokens,
      };
      try {
        // The slot is held for one attempt only, so a backoff wait does not block other calls.
        const { data: completion, response } = await semaphore.run(() => {
          countRequest();
          return client.chat.completions.create(body).withResponse();
        });
        options.onResponseHeaders?.(response.headers);
        tokenParamByModel.set(request.model, param);
        const choice = completion.choices?.[0];
        const usage = completion.usage;
        const reply = {
          content: choice?.message?.content ?? '',
          refusal: choice?.message?.refusal ?? null,
          finishReason: choice?.finish_reason ?? 'stop',
          usage: usage
            ? {
                promptTokens: usage.prompt_tokens,
                completionTokens: usage.completion_tokens,
                totalTokens: usage.total_tokens,
              }
            : zeroUsage(),
          model: completion.model || body.model,
        };
        countAnswer(reply.usage, reply.model);
        return reply;
      } catch (cause) {
        const error = toLlmError(cause, { model: body.model, baseURL, timeoutMs });
        if (!switched && isTokenLimitRejection(error.status, error.message, param)) {
          param = otherTokenLimitParam(param);
          switched = true;
          attempt--; // not a failure of the server: the same attempt, in the field it reads
          continue;
        }
        if (sendTemperature && isTemperatureRejection(error.status, error.message)) {
          refusedTemperature.add(request.model); // asked once more, then never sent to this model again
          attempt--;
          continue;
        }
        if (!error.retryable || attempt >= maxRetries) throw error;
        const asked = cause instanceof APIError ? retryAfterMs(cause.headers, nowMs()) : undefined;
        if (asked !== undefined && asked > maxRetryAfterMs) throw error;
        const delayMs = asked ?? backoffDelayMs(attempt, policy);
        options.onRetry?.({ attempt: attempt + 1, delayMs, error });
        await sleep(delayMs);
      }
    }
  }

  async function generateObject<T>(
    request: GenerateObjectRequest<T>,
  ): Promise<GenerateObjectResult<T>> {
    const model = request.model ?? options.defaultModel;
    const format = toResponseSchema(request.schema);
    let mode = modeByModel.get(model) ?? 'json_schema';
    const bodyFor = (
      messages: ChatCompletionMessageParam[],
    ): ChatCompletionCreateParamsNonStreaming => ({
      model,
      messages,
      ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
      ...(mode === 'json_schema'
        ? {
            response_format: {
              type: 'json_schema',
              json_schema: {
                name: request.schemaName,
                schema: format.schema,
                strict: format.strict,
              },
            },
          }
        : mode === 'json_object'
          ? { response_format: { type: 'json_object' } }
          : {}),
    });
    const firstMessages = (): ChatCompletionMessageParam[] => {
      const spell = mode !== 'json_schema' || !format.strict;
      const system = spell
        ? `${request.system}\n\nReply with only a JSON object, no prose and no code fence, matching this JSON Schema:\n${JSON.stringify(format.schema)}`
        : request.system;
      return [
        { role: 'system', content: system },
        { role: 'user', content: request.prompt },
      ];
    };

    let messages = firstMessages();
    let reply: Reply;
    for (;;) {
      try {
        reply = await complete(bodyFor(messages), request.maxOutputTokens);
        break;
      } catch (error) {
        const next = FALLBACK[mode];
        if (!(error instanceof LlmError) || !isResponseFormatRejection(error) || !next) throw error;
        mode = next;
        messages = firstMessages();
      }
    }
    modeByModel.set(model, mode);

    let usage = reply.usage;
    let checked = check(reply, request);
    if (!checked.ok) {
      messages = [
        ...messages,
        { role: 'assistant', content: reply.content },
        {
          role: 'user',
          content: `That reply could not be used: ${checked.problem}. Answer again with only the corrected JSON object matching the schema.`,
        },
      ];
      reply = await complete(bodyFor(messages), request.maxOutputTokens);
      usage = addUsage(usage, reply.usage);
      checked = check(reply, request);
    }
    if (!checked.ok) {
      throw new LlmError(
        'invalid_output',
        `The model's answer did not match the expected "${request.schemaName}" format, even after a repair attempt.`,
        {
          message: `invalid ${request.schemaName} from ${reply.model}: ${checked.problem}`,
        },
      );
    }
    return { value: checked.value, usage, model: reply.model, provider: 'openai' };
  }

  async function generateText(request: GenerateTextRequest): Promise<GenerateTextResult> {
    const model = request.model ?? options.defaultModel;
    const reply = await complete(
      {
        model,
        messages: [
          { role: 'system', content: request.system },
          { role: 'user', content: request.prompt },
        ],
        ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
      },
      request.maxOutputTokens,
    );
    if (reply.refusal) throw refused(reply.refusal);
    if (!reply.content.trim())
      throw new LlmError('invalid_output', 'The model returned an empty answer.', {
        message: `empty reply from ${reply.model}`,
      });
    return { text: reply.content, usage: reply.usage, model: reply.model, provider: 'openai' };
  }

  return { provider: 'openai', defaultModel: options.defaultModel, generateObject, generateText };
}

function check<T>(
  reply: Reply,
  request: GenerateObjectRequest<T>,
): { ok: true; value: T } | { ok: false; problem: string } {
  if (reply.refusal) throw refused(reply.refusal);
  if (reply.finishReason === 'length')
    return { ok: false, problem: 'the reply was cut off at the token limit; answer more briefly' };
  const parsed = parseJsonReply(reply.content);
  if (!parsed.ok) return { ok: false, problem: parsed.error };
  const result = request.schema.safeParse(parsed.value);
  if (result.success) return { ok: true, value: result.data };
  const issues = result.error.issues
    .slice(0, 8)
    .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
  return { ok: false, problem: `it does not match the schema (${issues.join('; ')})` };
}

const refused = (refusal: string): LlmError =>
  new LlmError('refused', `The model declined the request: ${refusal}`);
