import { describe, expect, it } from 'vitest';
import { grantsNetwork, networkFor } from './sandbox-view.js';

// Every pair of grants drawn from a set that holds the near misses (case, a missing dot, a wider or narrower name,
// another host), for a connection to no host in particular and to each host: the grant covers the network exactly
// when one of them is `*`, `net.*`, `net.connect`, or `net.connect:<the host>`.
const GRANTS = [
  '*',
  'net.*',
  'net.connect',
  'net.connect:a.example',
  'net.connect:b.example',
  'NET.CONNECT',
  'net',
  'net*',
  'n.*',
  'fs.*',
  'fs.read',
  'net.connect.*',
  '',
];
const HOSTS: readonly (readonly string[])[] = [[], ['a.example'], ['b.example'], ['a.example', '[::1]']];

function expected(grants: readonly string[], hosts: readonly string[]): boolean {
  return grants.some((grant) => ['*', 'net.*', 'net.connect'].includes(grant) || hosts.some((host) => grant === `net.connect:${host}`));
}

describe('grantsNetwork', () => {
  const cases = GRANTS.flatMap((first) => ['', ...GRANTS].map((second) => (second === '' ? [first] : [first, second])));
  it(`covers the network exactly for *, net.*, net.connect and net.connect:<host> (${cases.length * HOSTS.length} cases)`, () => {
    for (const grants of cases)
      for (const hosts of HOSTS) expect(grantsNetwork(grants, hosts), JSON.stringify({ grants, hosts })).toBe(expected(grants, hosts));
  });

  it('gives a shell command the network only where the settings allow it and the grant covers it (no grant at all: everything)', () => {
    for (const grants of [undefined, ...cases])
      for (const network of [true, false, undefined])
        expect(networkFor({ network }, grants), JSON.stringify({ grants, network })).toBe(network === true && (grants === undefined || expected(grants, [])));
  });
});
