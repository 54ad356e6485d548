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
export * from "./i18n.ts";
export * from "./error_message.ts";
export * from "./address.ts";
export * from "./timing_safe.ts";
export * from "./text.ts";
