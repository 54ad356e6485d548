import assert from "node:assert/strict";
import { CREDENTIAL_VARIABLES, hasCredentials, missingCredential } from "./credentials.ts";
import { envNames } from "./env_file.ts";
import { ENV_EXAMPLE } from "./config/setup_files.ts";
import type { ProviderId, RoleParams } from "./config/types.ts";

function role(provider: ProviderId, params: RoleParams = {}) {
  return { provider, model_id: "m", params };
}

Deno.test("missingCredential() follows the Authentication table", () => {
  assert.equal(missingCredential(role("vendor-a"), {}), "VENDOR_A_API_KEY");
  assert.equal(missingCredential(role("vendor-a"), { VENDOR_A_API_KEY: "k" }), undefined);
  assert.equal(missingCredential(role("vendor-a"), { VENDOR_A_API_KEY: " " }), "VENDOR_A_API_KEY");
  assert.equal(missingCredential(role("vendor-b"), {}), "VENDOR_B_API_KEY");
  assert.equal(missingCredential(role("vendor-c"), {}), "VENDOR_C_API_KEY");
  assert.equal(missingCredential(role("vendor-c"), { VENDOR_C_ALT_API_KEY: "k" }), undefined);
  assert.equal(missingCredential(role("local-runtime"), {}), undefined);
  assert.equal(missingCredential(role("fake"), {}), undefined);
});

Deno.test("missingCredential() honours params.api_key_env", () => {
  const r = role("vendor-b", { api_key_env: "OTHER_KEY" });
  assert.equal(missingCredential(r, { VENDOR_B_API_KEY: "k" }), "OTHER_KEY");
  assert.equal(missingCredential(r, { OTHER_KEY: "k" }), undefined);
  assert.equal(
    missingCredential(role("vendor-c", { api_key_env: "G" }), { VENDOR_C_API_KEY: "k" }),
    "G",
  );
});

Deno.test("missingCredential() checks vendor-d's region and one credential form", () => {
  assert.equal(missingCredential(role("vendor-d"), {}), "VENDOR_D_REGION");
  assert.equal(
    missingCredential(role("vendor-d", { region: "eu-west-1" }), {}),
    "VENDOR_D_PROFILE",
  );
  const region = { VENDOR_D_REGION: "us-east-1" };
  assert.equal(
    missingCredential(role("vendor-d"), { ...region, VENDOR_D_PROFILE: "p" }),
    undefined,
  );
  assert.equal(
    missingCredential(role("vendor-d"), { ...region, VENDOR_D_BEARER_TOKEN: "t" }),
    undefined,
  );
  assert.equal(
    missingCredential(role("vendor-d"), { ...region, VENDOR_D_ACCESS_KEY_ID: "i" }),
    "VENDOR_D_SECRET_ACCESS_KEY",
  );
  assert.equal(
    missingCredential(role("vendor-d"), {
      ...region,
      VENDOR_D_ACCESS_KEY_ID: "i",
      VENDOR_D_SECRET_ACCESS_KEY: "s",
    }),
    undefined,
  );
  assert.equal(hasCredentials("vendor-d", region), false);
});

Deno.test("CREDENTIAL_VARIABLES are all listed in the shipped .env.example", () => {
  const listed = envNames(ENV_EXAMPLE);
  for (const names of Object.values(CREDENTIAL_VARIABLES)) {
    for (const name of names) assert.ok(listed.includes(name), `${name} is missing`);
  }
  // vendor-d's temporary keys carry a session token; doctor must not call it unlisted.
  assert.ok(listed.includes("VENDOR_D_SESSION_TOKEN"));
});
