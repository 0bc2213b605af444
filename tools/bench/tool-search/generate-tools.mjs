// 500 realistic, deterministic tool declarations: 25 services x 5 kinds of things x 4 actions. Services share kinds
// (issues in GitHub, GitLab, Jira and Linear) and actions share wording, so many tools are near-duplicates.
import { ENTITIES } from './entities.mjs';
import { SERVICES } from './services.mjs';

/** mulberry32: a small seeded generator, so every run builds the same tools. */
function random(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ACTIONS = {
  list: [
    (s, e) => `Lists ${e.plural} in ${s.label}, newest first. ${cap(a(e.noun))} is ${e.what}.`,
    (s, e) => `Returns the ${e.plural} of your ${s.label} account, a page at a time; filter by ${e.fields[0][0].replace(/_/g, ' ')}.`,
    (s, e) => `Searches ${s.label} for ${e.plural} (${e.what}) matching a query.`,
  ],
  get: [
    (s, e) => `Gets one ${s.label} ${e.noun} by its id, with its ${e.fields.map((f) => f[0].replace(/_/g, ' ')).join(', ')}.`,
    (s, e) => `Fetches the details of ${a(e.noun)} in ${s.label}: ${e.what}.`,
  ],
  create: [
    (s, e) => `Creates a new ${e.noun} in ${s.label}. ${cap(a(e.noun))} is ${e.what}.`,
    (s, e) => `Adds ${a(e.noun)} to ${s.label} and returns its id.`,
    (s, e) => `Makes ${a(s.label)} ${e.noun} (${e.what}) from the given ${e.fields.map((f) => f[0].replace(/_/g, ' ')).join(' and ')}.`,
  ],
  update: [
    (s, e) => `Updates an existing ${s.label} ${e.noun}: changes its ${e.fields.map((f) => f[0].replace(/_/g, ' ')).join(' or ')}.`,
    (s, e) => `Edits ${a(e.noun)} in ${s.label}; fields left out keep their value.`,
  ],
  delete: [(s, e) => `Deletes ${a(s.label)} ${e.noun} permanently; this cannot be undone.`, (s, e) => `Removes ${a(e.noun)} from ${s.label}.`],
};

/** "a issue" -> "an issue". */
const a = (noun) => (/^[aeiou]/i.test(noun) ? `an ${noun}` : `a ${noun}`);
const cap = (text) => text[0].toUpperCase() + text.slice(1);
const string = (description) => ({ type: 'string', description });

function parametersOf(action, e, pick) {
  const id = { [`${e.name}_id`]: string(`Id of the ${e.noun}.`) };
  const fields = Object.fromEntries(e.fields.map(([name, description]) => [name, string(description)]));
  if (action === 'list') {
    const filter = Object.fromEntries(
      e.fields.slice(0, 1 + Math.floor(pick() * 2)).map(([name, description]) => [name, string(`Only ${e.plural} with this value. ${description}`)]),
    );
    return {
      ...filter,
      limit: { type: 'integer', description: 'Most results per page.', minimum: 1, maximum: 100 },
      cursor: string('Where the previous page ended.'),
    };
  }
  if (action === 'get' || action === 'delete') return id;
  if (action === 'update') return { ...id, ...fields };
  return fields;
}

export function generateTools(count = 500) {
  const pick = random(21);
  const tools = [];
  for (const [serviceId, label, kinds] of SERVICES)
    kinds.forEach((kind, k) => {
      const [name, noun, plural, what, fields] = ENTITIES[kind];
      const e = { name, noun, plural, what, fields };
      const s = { id: serviceId, label };
      for (const action of ['list', 'get', 'create', (k + serviceId.length) % 2 ? 'update' : 'delete']) {
        const phrasings = ACTIONS[action];
        const properties = parametersOf(action, e, pick);
        tools.push({
          name: `${serviceId}_${name}_${action}`,
          description: phrasings[Math.floor(pick() * phrasings.length)](s, e),
          parameters: { type: 'object', properties, required: action === 'list' ? [] : Object.keys(properties), additionalProperties: false },
          tags: [serviceId],
          group: action === 'list' || action === 'get' ? 'search' : 'edit',
        });
      }
    });
  return tools.slice(0, count);
}
