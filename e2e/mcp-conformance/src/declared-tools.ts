import { attachToolDeclaration, type ToolDeclaration } from '@toolwright/tool';

// A tool whose parameters' schema comes from elsewhere — a JSON Schema 2020-12 document an API publishes, with
// keywords no TypeScript type states (`if`/`then`/`else`, `allOf` of `anyOf`, `$anchor`) — is declared by hand
// (docs/builds-without-transformers.md): its schema goes out over MCP as written, and the executor validates calls
// against all of it.

const CONTACT_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: {
    address: { $anchor: 'addressDef', type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } },
  },
  properties: {
    name: { type: 'string' },
    address: { $ref: '#/$defs/address' },
    contactMethod: { type: 'string', enum: ['phone', 'email'] },
    phone: { type: 'string' },
    email: { type: 'string' },
  },
  required: [],
  allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
  if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
  then: { required: ['phone'] },
  else: { required: ['email'] },
  additionalProperties: false,
};

const declaration: ToolDeclaration = {
  name: 'json_schema_2020_12_tool',
  description: 'Tool with JSON Schema 2020-12 features',
  // The declaration's type names the keywords Toolwright's transformer writes; a hand-written schema may use the rest
  // of JSON Schema 2020-12, which MCP passes on and the executor's validator (Ajv 2020) enforces.
  parameters: CONTACT_SCHEMA as unknown as ToolDeclaration['parameters'],
  returns: { type: 'string' },
  parameterOrder: ['name', 'address', 'contactMethod', 'phone', 'email'],
  argumentPassing: 'object',
  metadata: {
    tier: 'read-only',
    timeoutMs: 30_000,
    sideEffects: [],
    capabilities: [],
    determinism: 'pure',
    resources: { timeoutMs: 30_000 },
    parallel: true,
    tags: [],
  },
};

/** How the contact is to be reached. */
export const json_schema_2020_12_tool = attachToolDeclaration(async function contact(args: {
  name?: string;
  contactMethod?: string;
  phone?: string;
  email?: string;
}) {
  return `${args.name ?? 'someone'} by ${args.contactMethod === 'phone' ? `phone ${args.phone}` : `email ${args.email}`}`;
}, declaration);
