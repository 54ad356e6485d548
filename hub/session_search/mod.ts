/**
 * The session search index: an FTS5 table of what was said in each session, kept as
 * sessions are written, that the dashboard's session search reads.
 *
 * @module
 */
export {
  type ListedSession,
  type MessageSource,
  SEARCHED_AGENT,
  type SearchedMessage,
  SESSION_SEARCH_FILE,
  SessionSearchIndex,
} from "./index.ts";
export { withHeldIndex } from "./held.ts";
