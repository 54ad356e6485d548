/**
 * The catalogues an owner event's `said` is read with (`hub/events/said.ts`), by the
 * book its code names: every channel that shows owner events (terminal chat, the TUI,
 * the messenger, the dashboard) says them with these, each in its reader's language. It
 * sits in the agent layer, above the catalogues it gathers (the jobs' among them) and
 * below every reader.
 *
 * @module
 */
import { type EventBooks, eventSentence } from "./events/mod.ts";
import { t as spend } from "./spend/_messages.ts";
import { t as jobs } from "./jobs/_messages.ts";
import { t as memory } from "./memory/_messages.ts";
import { t as mcp } from "./mcp/_messages.ts";

/** Every book an owner event's code may name. */
export const EVENT_BOOKS: EventBooks = { events: eventSentence, spend, jobs, memory, mcp };
