/** A thrown value as the executor reports it: a message (never a stack), and the error's own name and code. */
export interface ThrownDescription {
  message: string;
  /** The error class's name, when it is not plain `Error`. */
  name?: string;
  /** The error's own string `code` (`ENOENT`, `not_found`, `outside_workspace`, ...). */
  errorCode?: string;
}

const MAX_MESSAGE = 2000;
/** A code is an identifier, never free text: anything else is left out rather than shown to a model. */
const CODE = /^[A-Za-z][A-Za-z0-9_.:-]{0,63}$/;

/**
 * Describes anything a tool, hook, policy or host callback can throw without trusting it: a getter or
 * proxy trap that throws, a `toString` that throws, a cycle or a BigInt in a thrown object, a huge
 * message — each read is guarded and the message capped, so describing a failure never fails.
 * `thrower` words values that are not errors ("the tool threw 42").
 * @example describeThrown(Object.assign(new Error('no such file'), { code: 'not_found' }), 'the tool')
 *   // { message: 'no such file', errorCode: 'not_found' }
 */
export function describeThrown(error: unknown, thrower: string): ThrownDescription {
  if (typeof error === 'string') return { message: cap(error) || `${thrower} threw an empty string` };
  if (isPrimitive(error)) return { message: `${thrower} threw ${primitive(error)}` };
  const message = read(error, 'message');
  const name = read(error, 'name');
  const code = read(error, 'code');
  const isError = guard(() => error instanceof Error, false);
  const description: ThrownDescription = {
    message:
      typeof message === 'string' && message !== ''
        ? cap(message)
        : isError
          ? typeof name === 'string' && name !== ''
            ? cap(name)
            : 'an error without a message'
          : `${thrower} threw ${objectText(error)}`,
  };
  if (typeof name === 'string' && name !== '' && name !== 'Error' && CODE.test(name)) description.name = name;
  if (typeof code === 'string' && CODE.test(code)) description.errorCode = code;
  return description;
}

function read(target: object, key: string): unknown {
  return guard(() => (target as Record<string, unknown>)[key], undefined);
}

function guard<T>(fn: () => T, fallback: T): T {
  try {
    return fn();
  } catch {
    return fallback;
  }
}

type Primitive = string | number | boolean | bigint | symbol | null | undefined;

function isPrimitive(value: unknown): value is Primitive {
  return (typeof value !== 'object' && typeof value !== 'function') || value === null;
}

function primitive(value: Primitive): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'symbol') return 'a symbol';
  if (typeof value === 'bigint') return `the bigint ${cap(value.toString())}`;
  return cap(String(value));
}

function objectText(value: object): string {
  const json = guard(() => JSON.stringify(value) as string | undefined, undefined);
  return typeof json === 'string' ? cap(json) : typeof value === 'function' ? 'a function' : 'an object';
}

function cap(text: string): string {
  if (text.length <= MAX_MESSAGE) return text;
  const end = /[\ud800-\udbff]/.test(text[MAX_MESSAGE - 1]!) ? MAX_MESSAGE - 1 : MAX_MESSAGE; // never split a surrogate pair
  return `${text.slice(0, end)}… (${text.length} characters)`;
}
