import { createAmazonBedrock } from '@ai-sdk/amazon-bedrock';
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModel } from 'ai';
import type { Config } from '../config.js';
import { TaskFailedError } from '../errors.js';

/**
 * The agent's model, built from configuration. Provider keys are never read here: each AI
 * SDK provider reads its own variable (OPENAI_API_KEY, ANTHROPIC_API_KEY, the AWS
 * credential chain for Bedrock), so this module never holds a secret.
 */
export type ModelConfig = Pick<Config, 'BTS_MODEL_PROVIDER' | 'BTS_MODEL' | 'BTS_MODEL_BASE_URL' | 'AWS_REGION'> &
  Partial<Pick<Config, 'BTS_MODEL_API_KEY'>>;

export interface ResolvedModel {
  model: LanguageModel;
  provider: string;
  modelId: string;
}

export const MODEL_HELP =
  'Configure one with BTS_MODEL_PROVIDER (bedrock, openai, anthropic or openai-compatible), BTS_MODEL (the model id) ' +
  'and, for openai-compatible servers (vLLM, Ollama, a gateway), BTS_MODEL_BASE_URL; the provider key comes from its own ' +
  'variable (OPENAI_API_KEY, ANTHROPIC_API_KEY, or the AWS credentials for Bedrock).';

/** Bedrock serves Claude through cross-region inference profiles named after the region group. */
function defaultBedrockModel(region: string): string {
  const group = region.startsWith('eu-') ? 'eu' : region.startsWith('ap-') ? 'apac' : 'us';
  return `${group}.anthropic.claude-sonnet-4-20250514-v1:0`;
}

/** Sensible defaults where a provider has an obvious choice; openai-compatible has none. */
function defaultModel(cfg: ModelConfig): string | undefined {
  switch (cfg.BTS_MODEL_PROVIDER) {
    case 'bedrock':
      return defaultBedrockModel(cfg.AWS_REGION);
    case 'openai':
      return 'gpt-4.1';
    case 'anthropic':
      return 'claude-sonnet-4-5';
    default:
      return undefined;
  }
}

/** Throws the task-level error that tells the operator how to configure a model. */
export function resolveModel(cfg: ModelConfig): ResolvedModel {
  const provider = cfg.BTS_MODEL_PROVIDER;
  if (!provider) throw new TaskFailedError(`No agent model is configured. ${MODEL_HELP}`);
  const modelId = cfg.BTS_MODEL ?? defaultModel(cfg);
  if (!modelId) throw new TaskFailedError(`The agent model provider ${provider} needs BTS_MODEL. ${MODEL_HELP}`);
  const baseURL = cfg.BTS_MODEL_BASE_URL;
  switch (provider) {
    case 'bedrock':
      return { provider, modelId, model: createAmazonBedrock({ region: cfg.AWS_REGION })(modelId) };
    case 'openai':
      return { provider, modelId, model: createOpenAI(baseURL ? { baseURL } : {})(modelId) };
    case 'anthropic':
      return { provider, modelId, model: createAnthropic(baseURL ? { baseURL } : {})(modelId) };
    case 'openai-compatible':
      if (!baseURL)
        throw new TaskFailedError(`The openai-compatible model provider needs BTS_MODEL_BASE_URL. ${MODEL_HELP}`);
      return {
        provider,
        modelId,
        model: createOpenAICompatible({
          name: 'openai-compatible',
          baseURL,
          ...(cfg.BTS_MODEL_API_KEY ? { apiKey: cfg.BTS_MODEL_API_KEY } : {}),
        })(modelId),
      };
  }
}
