/**
 * Sentences of component load errors.
 *
 * @module
 */
import { catalogue } from "../i18n.ts";

/** Translator for component load errors. */
export const t = catalogue({
  no_manifest: "it exports no 'manifest'",
  bad_manifest: "'{where}' in its manifest is missing or not valid",
}, {
  no_manifest: "'manifest' dışa aktarmıyor",
  bad_manifest: "manifest içindeki '{where}' eksik ya da geçersiz",
});
