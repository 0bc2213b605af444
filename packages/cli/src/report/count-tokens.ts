import { countTokens as countO200k } from 'gpt-tokenizer/encoding/o200k_base';

/**
 * The tokens of a value's compact JSON text in the o200k_base encoding (GPT-4o and later). Providers render tool
 * declarations into their own prompt format, so this measures the declaration, not a provider's exact bill.
 */
export function countTokens(value: unknown): number {
  return countO200k(JSON.stringify(value));
}
