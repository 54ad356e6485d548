// A Worker that runs the protocol library inside workerd: POST the committed vectors,
// get back one line per check. Used by workerd_test.ts only.

import {
  b64uDecode,
  b64uEncode,
  generateIdentity,
  identityFromEnv,
  identityFromJson,
  openBox,
  OpenError,
  parseCard,
  parseUniverseRequest,
  parseWireEnvelope,
  sealBox,
  signEnvelope,
  signUniverseRequest,
  verifyAndOpen,
  verifyEnvelope,
  verifyUniverseRequest,
} from "@agent/net";

// deno-lint-ignore no-explicit-any
type Vectors = any;

async function checks(v: Vectors): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  const id = await identityFromJson(v.identity.json);
  out.sign_key = id.signKey === v.identity.sign_key;
  out.box_key = id.boxKey === v.identity.box_key;
  out.env = (await identityFromEnv(v.identity.env)).signKey === v.identity.sign_key;
  const wire = await signEnvelope(JSON.parse(v.envelope.payload_json), id);
  out.envelope_sig = wire.sig === v.envelope.sig && wire.payload === v.envelope.payload;
  out.envelope_verify = await verifyEnvelope(
    { payload: v.envelope.payload, sig: v.envelope.sig },
    v.identity.sign_key,
  );
  const sig = b64uDecode(v.envelope.sig);
  out.short_sig_false = !(await verifyEnvelope(
    { payload: v.envelope.payload, sig: b64uEncode(sig.subarray(0, 63)) },
    v.identity.sign_key,
  ));
  const box = await sealBox(
    JSON.parse(v.box.plaintext_json),
    v.box.header,
    v.box.recipient_box_key,
    {
      ephemeralSeed: b64uDecode(v.box.ephemeral_seed),
      nonce: b64uDecode(v.box.nonce),
    },
  );
  out.box_ct = box.ct === v.box.ct && box.epk === v.box.epk;
  out.box_open = JSON.stringify(await openBox(box, v.box.header, id)) === v.box.plaintext_json;
  try {
    await openBox({ ...box, epk: b64uEncode(new Uint8Array(32)) }, v.box.header, id);
    out.zero_epk_rejected = false;
  } catch (error) {
    out.zero_epk_rejected = error instanceof OpenError;
  }
  const fresh = await generateIdentity();
  const sealed = await sealBox({ text: "hi from workerd" }, v.box.header, fresh.boxKey);
  out.fresh_round_trip =
    JSON.stringify(await openBox(sealed, v.box.header, fresh)) === '{"text":"hi from workerd"}';
  const pad = "=".repeat((4 - (v.envelope.payload.length % 4)) % 4);
  const parsed = parseWireEnvelope({ payload: v.envelope.payload + pad, sig: v.envelope.sig });
  out.padded_parse = parsed.ok && pad.length > 0;
  if (parsed.ok) {
    const opened = await verifyAndOpen(parsed, v.identity.sign_key, id);
    out.verify_and_open = opened.ok && JSON.stringify(opened.plaintext) === v.box.plaintext_json;
  }
  const bad = parseWireEnvelope({ payload: "e30", sig: "AA" });
  out.bad_detail = bad.ok ? "" : bad.detail;
  out.universe_sig =
    (await signUniverseRequest(JSON.parse(v.universe.payload_json), id)).sig === v.universe.sig;
  out.universe_verify = await verifyUniverseRequest({
    payload: v.universe.payload,
    sig: v.universe.sig,
  }, v.identity.sign_key);
  out.universe_parse =
    parseUniverseRequest({ payload: v.universe.payload, sig: v.universe.sig }).ok;
  out.card = parseCard({
    v: 1,
    address: "bob.example",
    name: "Bob",
    sign_key: id.signKey,
    box_key: id.boxKey,
  }).name === "Bob";
  return out;
}

export default {
  async fetch(request: Request): Promise<Response> {
    try {
      return Response.json(await checks(await request.json()));
    } catch (error) {
      return Response.json({ error: String(error), stack: (error as Error).stack }, {
        status: 500,
      });
    }
  },
};
