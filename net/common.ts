/**
 * The light part of the protocol package, for code that must start fast: the
 * language catalogues, the message of anything thrown and the address rules. It loads no
 * cryptography.
 *
 * @example
 * ```ts
 * import { catalogue, errorMessage } from "./common.ts";
 * const t = catalogue({ hi: "Hello" }, { hi: "Merhaba" });
 * if (t("tr", "hi") !== "Merhaba" || errorMessage(new Error("x")) !== "x") throw new Error();
 * ```
 *
 * @module
 */

// The language catalogues: English and Turkish sentences, the language of the
// environment, `{name}` placeholders.
export {
  catalogue,
  currentLang,
  format,
  isLang,
  type Lang,
  LANGS,
  type Translator,
  type Vars,
} from "./i18n.ts";

// The one-line message of anything thrown, and the address rule.
export { errorLine, errorMessage } from "./error_message.ts";
export { isAddress } from "./address.ts";
