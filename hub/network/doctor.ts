/**
 * `agent doctor`'s network lines, end to end, when `AGENT_SPINE_URL` is set: the spine
 * answers `/hub/health` with the token; the card it serves carries its address; that
 * card's keys are this agent's identity; the spine is not older than the kit this
 * agent would deploy. Each line names the command that fixes it.
 *
 * @module
 */
import type { CheckResult, DoctorContext } from "../doctor/types.ts";
import { catalogue } from "../i18n.ts";
import { errorMessage } from "@agent/net/common";
import { sameKey } from "@agent/net";
import { loadIdentity } from "./identity_file.ts";
import { SpineClient, SpineError } from "./spine_client.ts";

const t = catalogue({
  no_token:
    "AGENT_SPINE_URL is set but AGENT_SPINE_TOKEN is missing; run `agent net spine deploy DIR` or add it to .env",
  down: "{url} does not answer: {detail}",
  refused: "{url} refused AGENT_SPINE_TOKEN (401); the token in .env is not the spine's HUB_TOKEN",
  unconfigured: "{url} has no HUB_TOKEN secret (503); run `agent net spine deploy DIR` again",
  status: "{url} answered {status} on /hub/health",
  ok: "{url} answers: address {address}, mode {mode}, {mailbox} waiting",
  no_card: "the spine serves no card yet; run `agent net publish`",
  card_address: "the card says address {card}, the spine is {address}; run `agent net publish`",
  no_identity: "no network identity here; run `agent net init`, then `agent net publish`",
  bad_identity: "the network identity is unreadable: {detail}",
  card_keys:
    "the published card's {what} differ from this agent's identity; run `agent net publish`",
  card_ok: "the card of {address} ({name}) carries this agent's keys",
  version_ok: "spine {version}, as this agent's kit",
  version_newer: "spine {version} is newer than this agent's kit {kit}; update agent",
  version_old:
    "spine {version} is older than this agent's kit {kit}; redeploy: `agent net spine init NEW_DIR{address}` then `agent net spine deploy NEW_DIR{address}` (the Mailbox keeps its state)",
}, {
  no_token:
    "AGENT_SPINE_URL ayarlı ama AGENT_SPINE_TOKEN yok; `agent net spine deploy DIR` çalıştırın ya da .env'ye ekleyin",
  down: "{url} yanıt vermiyor: {detail}",
  refused: "{url} AGENT_SPINE_TOKEN'ı reddetti (401); .env'deki anahtar spine'ın HUB_TOKEN'ı değil",
  unconfigured:
    "{url} üzerinde HUB_TOKEN sırrı yok (503); `agent net spine deploy DIR` komutunu yeniden çalıştırın",
  status: "{url} /hub/health için {status} yanıtı verdi",
  ok: "{url} yanıt veriyor: adres {address}, kip {mode}, {mailbox} bekleyen",
  no_card: "spine henüz kart sunmuyor; `agent net publish` çalıştırın",
  card_address: "kart {card} adresini söylüyor, spine {address}; `agent net publish` çalıştırın",
  no_identity: "burada ağ kimliği yok; `agent net init`, sonra `agent net publish` çalıştırın",
  bad_identity: "ağ kimliği okunamıyor: {detail}",
  card_keys:
    "yayımlanan kartın {what} alanları bu ajanın kimliğinden farklı; `agent net publish` çalıştırın",
  card_ok: "{address} kartı ({name}) bu ajanın anahtarlarını taşıyor",
  version_ok: "spine {version}, bu ajanın kitiyle aynı",
  version_newer: "spine {version}, bu ajanın kitinden ({kit}) yeni; agent'ı güncelleyin",
  version_old:
    "spine {version}, bu ajanın kitinden ({kit}) eski; yeniden dağıtın: `agent net spine init YENI_DIZIN{address}`, sonra `agent net spine deploy YENI_DIZIN{address}` (Mailbox durumunu korur)",
});

const TIMEOUT_MS = 5_000;

interface Health {
  address: string;
  mode: string;
  mailbox: number;
  version: string;
}

/** The `spine`, `card` and `spine version` lines; none without `AGENT_SPINE_URL`. */
export async function networkCheck(d: DoctorContext): Promise<CheckResult[]> {
  const url = d.env.AGENT_SPINE_URL?.replace(/\/+$/, "");
  if (!url) return [];
  const token = d.env.AGENT_SPINE_TOKEN;
  if (!token) return [{ name: "spine", status: "fail", detail: t(d.lang, "no_token") }];
  const spine = new SpineClient(url, token, { requestTimeoutMs: TIMEOUT_MS });
  let health: Health;
  try {
    health = await spine.health();
  } catch (error) {
    if (error instanceof SpineError && error.status >= 300) {
      const key = error.status === 401
        ? "refused"
        : error.status === 503
        ? "unconfigured"
        : "status";
      return [{
        name: "spine",
        status: "fail",
        detail: t(d.lang, key, { url, status: error.status }),
      }];
    }
    const detail = error instanceof SpineError ? error.detail : errorMessage(error);
    return [{ name: "spine", status: "fail", detail: t(d.lang, "down", { url, detail }) }];
  }
  const out: CheckResult[] = [{
    name: "spine",
    status: "ok",
    detail: t(d.lang, "ok", {
      url,
      address: health.address,
      mode: health.mode,
      mailbox: health.mailbox,
    }),
  }];
  out.push(await cardLine(d, spine, health));
  if (d.spineKitVersion !== undefined) out.push(versionLine(d, health, d.spineKitVersion));
  return out;
}

async function cardLine(
  d: DoctorContext,
  spine: SpineClient,
  health: Health,
): Promise<CheckResult> {
  const line = (status: CheckResult["status"], detail: string): CheckResult => ({
    name: "card",
    status,
    detail,
  });
  let card: Record<string, unknown> | undefined;
  try {
    card = await spine.publishedCard();
  } catch (error) {
    // An answer other than the card: no card to check. No answer: the spine is down.
    if (!(error instanceof SpineError) || error.status < 300) {
      const detail = error instanceof SpineError ? error.detail : errorMessage(error);
      return line("fail", t(d.lang, "down", { url: spine.url, detail }));
    }
  }
  if (card === undefined) return line("warn", t(d.lang, "no_card"));
  if (card.address !== health.address) {
    return line(
      "fail",
      t(d.lang, "card_address", { card: String(card.address), address: health.address }),
    );
  }
  let loaded;
  try {
    loaded = await loadIdentity(d.paths, d.env);
  } catch (error) {
    return line("fail", t(d.lang, "bad_identity", { detail: errorMessage(error) }));
  }
  if (loaded === undefined) return line("warn", t(d.lang, "no_identity"));
  const mine = { sign_key: loaded.identity.signKey, box_key: loaded.identity.boxKey };
  const differs = (["sign_key", "box_key"] as const).filter((k) =>
    typeof card[k] !== "string" || !sameKey(card[k], mine[k])
  );
  if (differs.length > 0) return line("fail", t(d.lang, "card_keys", { what: differs.join(", ") }));
  return line("ok", t(d.lang, "card_ok", { address: health.address, name: String(card.name) }));
}

function versionLine(d: DoctorContext, health: Health, kit: string): CheckResult {
  const order = compareVersions(health.version, kit);
  const address = health.address.endsWith(".workers.dev") ? "" : ` --address ${health.address}`;
  const vars = { version: health.version, kit, address };
  if (order === 0) {
    return { name: "spine version", status: "ok", detail: t(d.lang, "version_ok", vars) };
  }
  return {
    name: "spine version",
    status: "warn",
    detail: t(d.lang, order < 0 ? "version_old" : "version_newer", vars),
  };
}

/**
 * Compares two `major.minor.patch` versions: negative when `a` is older.
 *
 * @example
 * ```ts
 * import { compareVersions } from "./doctor.ts";
 * if (!(compareVersions("0.1.0", "0.10.0") < 0)) throw new Error();
 * ```
 */
export function compareVersions(a: string, b: string): number {
  const parse = (v: string) => v.split(/[.+-]/).slice(0, 3).map((n) => Number.parseInt(n, 10) || 0);
  const [x, y] = [parse(a), parse(b)];
  for (let i = 0; i < 3; i++) {
    const diff = (x[i] ?? 0) - (y[i] ?? 0);
    if (diff !== 0) return diff;
  }
  return 0;
}
