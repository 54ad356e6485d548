/**
 * What the page's modules pass each other.
 *
 * @module
 */

/** A desk event as the page hears it (`GET /dashboard/api/desk`), with its conversation. */
export interface DeskMessage {
  conversation: string;
  // deno-lint-ignore no-explicit-any
  event: any;
}
