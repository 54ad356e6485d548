// Minimal assertions for the tests beside the protocol code (JSR, home of @std/assert,
// is unreachable from the build machines, and net/ imports nothing of ours).

/** Throws unless `actual` and `expected` are structurally equal. */
export function assertEquals(actual: unknown, expected: unknown, message?: string): void {
  if (!equal(actual, expected)) {
    throw new Error(
      `${message ?? "Values differ"}:\n  actual:   ${show(actual)}\n  expected: ${show(expected)}`,
    );
  }
}

/** Throws unless `value` is truthy. */
export function assert(value: unknown, message = "Assertion failed"): asserts value {
  if (!value) throw new Error(message);
}

/** Throws unless `fn` throws an instance of `type`; returns the error. */
export function assertThrows<E extends Error>(
  fn: () => unknown,
  type: new (...args: never[]) => E,
  includes?: string,
): E {
  try {
    fn();
  } catch (error) {
    return checkError(error, type, includes);
  }
  throw new Error(`Expected ${type.name} to be thrown`);
}

/** Throws unless the promise rejects with an instance of `type`; returns the error. */
export async function assertRejects<E extends Error>(
  fn: () => Promise<unknown>,
  type: new (...args: never[]) => E,
  includes?: string,
): Promise<E> {
  try {
    await fn();
  } catch (error) {
    return checkError(error, type, includes);
  }
  throw new Error(`Expected ${type.name} to be rejected`);
}

function checkError<E extends Error>(
  error: unknown,
  type: new (...args: never[]) => E,
  includes: string | undefined,
): E {
  if (!(error instanceof type)) {
    throw new Error(`Expected ${type.name}, got ${show(error)}`);
  }
  if (includes !== undefined && !error.message.includes(includes)) {
    throw new Error(`Expected message with "${includes}", got "${error.message}"`);
  }
  return error;
}

function equal(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (a instanceof Uint8Array && b instanceof Uint8Array) {
    return a.length === b.length && a.every((x, i) => x === b[i]);
  }
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) =>
    equal((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])
  );
}

function show(value: unknown): string {
  if (value instanceof Uint8Array) return `Uint8Array[${[...value].join(",")}]`;
  if (value instanceof Error) return `${value.name}: ${value.message}`;
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}
