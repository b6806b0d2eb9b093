import OpenAI from 'openai';
import type { z } from 'zod';

/** How the helpers reach a model. Without an apiKey every helper answers with its fallback. */
export interface AiClientConfig {
  /** OPENAI_API_KEY; empty or missing: no model, fallbacks only. */
  apiKey?: string;
  /** OPENAI_BASE_URL: any OpenAI-compatible server (default the OpenAI API). */
  baseURL?: string;
  /** OPENAI_MODEL (default gpt-4o-mini). */
  model?: string;
  /** Longest wait for an answer before falling back (default 4000 ms). */
  timeoutMs?: number;
}

/** Why a model answer was not used (logged, never shown to the user). */
export type AiFailure = 'disabled' | 'timeout' | 'http' | 'refusal' | 'empty' | 'invalid_json' | 'schema';

export interface AiLogger {
  warn(obj: object, msg?: string): void;
}

export const DEFAULT_AI_MODEL = 'gpt-4o-mini';
export const DEFAULT_AI_TIMEOUT_MS = 4000;

/** The AI configuration from the environment (OPENAI_API_KEY, OPENAI_BASE_URL, OPENAI_MODEL, AI_TIMEOUT_MS). */
export function aiConfigFromEnv(env: Record<string, string | undefined> = process.env): AiClientConfig {
  const timeout = Number(env.AI_TIMEOUT_MS);
  return {
    apiKey: env.OPENAI_API_KEY?.trim() || undefined,
    baseURL: env.OPENAI_BASE_URL?.trim() || undefined,
    model: env.OPENAI_MODEL?.trim() || undefined,
    timeoutMs: Number.isFinite(timeout) && timeout > 0 ? timeout : undefined,
  };
}

/**
 * The one model client of the project (the `openai` package, chat completions in JSON mode).
 * `json()` never throws: any timeout, HTTP error, refusal or answer that fails the schema gives
 * `null`, and the caller answers with its deterministic fallback instead.
 */
export class AiClient {
  readonly model: string;
  readonly timeoutMs: number;
  private readonly openai: OpenAI | null;

  constructor(
    config: AiClientConfig = {},
    private readonly logger?: AiLogger,
  ) {
    this.model = config.model ?? DEFAULT_AI_MODEL;
    this.timeoutMs = config.timeoutMs ?? DEFAULT_AI_TIMEOUT_MS;
    this.openai = config.apiKey ? new OpenAI({ apiKey: config.apiKey, baseURL: config.baseURL, timeout: this.timeoutMs, maxRetries: 0 }) : null;
  }

  /** Whether a model is configured (an API key is set). */
  get enabled(): boolean {
    return this.openai !== null;
  }

  /**
   * Asks the model for a JSON object and checks it with `schema`. Answers the parsed value, or
   * null (with the reason logged) when there is no model or its answer cannot be used.
   */
  async json<T extends z.ZodType>(schema: T, system: string, user: string, task = 'ai'): Promise<z.infer<T> | null> {
    const result = await this.tryJson(schema, system, user);
    if (!result.ok && result.failure !== 'disabled') this.logger?.warn({ task, failure: result.failure, detail: result.detail }, 'respuesta del modelo descartada; se usa la alternativa');
    return result.ok ? result.value : null;
  }

  /** Like json(), but tells why an answer was not used (for tests and logs). */
  async tryJson<T extends z.ZodType>(
    schema: T,
    system: string,
    user: string,
  ): Promise<{ ok: true; value: z.infer<T> } | { ok: false; failure: AiFailure; detail?: string }> {
    if (!this.openai) return { ok: false, failure: 'disabled' };
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.timeoutMs);
    try {
      const completion = await this.openai.chat.completions.create(
        {
          model: this.model,
          response_format: { type: 'json_object' },
          temperature: 0.4,
          messages: [
            { role: 'system', content: system },
            { role: 'user', content: user },
          ],
        },
        { signal: controller.signal, timeout: this.timeoutMs, maxRetries: 0 },
      );
      const choice = completion.choices?.[0];
      const message = choice?.message;
      if (message?.refusal || choice?.finish_reason === 'content_filter') return { ok: false, failure: 'refusal', detail: message?.refusal ?? 'content_filter' };
      const content = message?.content?.trim();
      if (!content) return { ok: false, failure: 'empty' };
      let parsed: unknown;
      try {
        parsed = JSON.parse(stripFences(content));
      } catch {
        return { ok: false, failure: 'invalid_json', detail: content.slice(0, 200) };
      }
      const checked = schema.safeParse(parsed);
      if (!checked.success) return { ok: false, failure: 'schema', detail: checked.error.message.slice(0, 300) };
      return { ok: true, value: checked.data };
    } catch (error) {
      const timedOut = controller.signal.aborted || error instanceof OpenAI.APIConnectionTimeoutError || (error instanceof Error && error.name === 'APIUserAbortError');
      return { ok: false, failure: timedOut ? 'timeout' : 'http', detail: error instanceof Error ? error.message.slice(0, 200) : String(error) };
    } finally {
      clearTimeout(timer);
    }
  }
}

/** Some servers wrap JSON in ```json fences even in JSON mode. */
function stripFences(content: string): string {
  const m = /^```(?:json)?\s*([\s\S]*?)\s*```$/.exec(content);
  return m ? m[1] : content;
}
