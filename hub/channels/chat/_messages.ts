/**
 * Chat's own sentences in English and Turkish (the desk's are shared by every channel).
 *
 * @module
 */
import { catalogue } from "../../i18n.ts";

/** Chat's sentences. */
export const chatSentence = catalogue({
  ctrl_c_again: "(the line was cleared; press Ctrl-C again to quit)",
}, {
  ctrl_c_again: "(satır silindi; çıkmak için Ctrl-C'ye yeniden basın)",
});
