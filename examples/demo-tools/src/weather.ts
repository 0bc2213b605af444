import { tool, type Integer } from '@toolwright/tool';

/** Units for temperatures. */
export type Units = 'celsius' | 'fahrenheit';

/** A forecast for one day. */
export interface DailyForecast {
  /** Calendar date, e.g. 2026-11-22. @format date */
  date: string;
  high: number;
  low: number;
  summary: string;
}

/**
 * Returns the weather forecast for a city, one entry per day starting today.
 * @param city City name, optionally with a country code ("Lisbon, PT").
 * @param days Number of days to forecast.
 * @param units Temperature units.
 * @tier read-only
 * @timeout 10s
 * @sideEffect net-read
 */
export const getForecast = tool(async function getForecast(
  city: string,
  /** @minimum 1 @maximum 14 */ days: Integer = 3,
  units: Units = 'celsius',
): Promise<DailyForecast[]> {
  const base = units === 'celsius' ? 18 : 64;
  return Array.from({ length: days }, (_, i) => ({
    date: new Date(Date.UTC(2026, 10, 22 + i)).toISOString().slice(0, 10),
    high: base + (city.length % 5) + i,
    low: base - 6 + i,
    summary: i % 2 === 0 ? 'Sunny spells' : 'Light rain',
  }));
});
