import { source } from '@toolwright/sources';

/** A temperature and its unit. */
export interface Temperature {
  value: number;
  unit: 'C' | 'F';
}

// The work is done by an HTTP endpoint (`server.mjs` here: `PORT=8787 node server.mjs`), reached through the SSRF-safe
// fetch, which connects only to public addresses unless told otherwise: this endpoint is on the local machine, so its
// address is allowed explicitly.
/**
 * Converts a temperature between Celsius and Fahrenheit.
 * @param value The temperature to convert.
 * @param from The unit `value` is in; the result is in the other.
 * @tier read-only
 * @timeout 5s
 */
export const convertTemperature = source.http<(value: number, from: 'C' | 'F') => Promise<Temperature>>(
  process.env.TEMPERATURE_URL ?? 'http://127.0.0.1:8787/convert-temperature',
  { allowAddresses: ['127.0.0.1'] },
);
