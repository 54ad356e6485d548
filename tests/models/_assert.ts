/**
 * The few assertions these tests use, over `node:assert/strict` (JSR's `@std/assert`
 * cannot be fetched here).
 *
 * @module
 */
import nodeAssert from "node:assert/strict";

/** Fails unless `value` is truthy. */
export function assert(value: unknown, message?: string): asserts value {
  nodeAssert.ok(value, message);
}

/** Deep, strict equality. */
export function assertEquals(actual: unknown, expected: unknown, message?: string): void {
  nodeAssert.deepStrictEqual(actual, expected, message);
}

/** `actual` matches `pattern`. */
export function assertMatch(actual: string, pattern: RegExp, message?: string): void {
  nodeAssert.match(actual, pattern, message);
}

/** `actual` is within `tolerance` of `expected`. */
export function assertAlmostEquals(actual: number, expected: number, tolerance = 1e-9): void {
  nodeAssert.ok(
    Math.abs(actual - expected) <= tolerance,
    `expected ${actual} to be within ${tolerance} of ${expected}`,
  );
}
