/**
 * The sentences of the overview's states and events, the approvals page and its
 * navigation badge, the sign-in messages and the session search, in English and
 * Turkish (kept apart from `i18n.ts`, which merges them, so neither file grows past
 * reading).
 *
 * @module
 */

/** English. */
export const EN_STATUS = {
  no_matches: "No session matches “{q}”.",
};

/** Turkish. */
export const TR_STATUS: Record<keyof typeof EN_STATUS, string> = {
  no_matches: "“{q}” ile eşleşen oturum yok.",
};
