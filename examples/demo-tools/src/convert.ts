/**
 * Converts an amount between two currencies at a fixed demo rate table.
 * @tool
 * @tier read-only
 * @determinism pure
 * @param amount Amount in the source currency.
 * @param from ISO 4217 code of the source currency.
 * @param to ISO 4217 code of the target currency.
 */
export async function convertCurrency(amount: number, from: 'EUR' | 'USD' | 'GBP', to: 'EUR' | 'USD' | 'GBP'): Promise<{ amount: number; currency: string }> {
  const perEuro = { EUR: 1, USD: 1.08, GBP: 0.86 } as const;
  return { amount: Math.round((amount / perEuro[from]) * perEuro[to] * 100) / 100, currency: to };
}
