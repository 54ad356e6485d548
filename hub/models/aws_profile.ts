/**
 * Static keys of a named profile in the shared credentials file, for `vendor-d`
 * with `VENDOR_D_PROFILE`. Only plain key profiles are read (no SSO, no role chains).
 *
 * @module
 */

/** Access keys read from a profile. */
export interface ProfileKeys {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

/**
 * Reads `profile` from `AWS_SHARED_CREDENTIALS_FILE` (else `~/.aws/credentials`) and
 * `~/.aws/config` (`[profile NAME]` sections). Throws `Error` naming the profile when
 * it has no static keys.
 */
export async function readProfileKeys(
  profile: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<ProfileKeys> {
  const home = env.HOME ?? ".";
  const files = [
    env.AWS_SHARED_CREDENTIALS_FILE ?? `${home}/.aws/credentials`,
    env.AWS_CONFIG_FILE ?? `${home}/.aws/config`,
  ];
  for (const file of files) {
    let text: string;
    try {
      text = await Deno.readTextFile(file);
    } catch {
      continue;
    }
    const section = parseIni(text)[profile] ?? parseIni(text)[`profile ${profile}`];
    const id = section?.aws_access_key_id;
    const secret = section?.aws_secret_access_key;
    if (id && secret) {
      const token = section.aws_session_token;
      return token
        ? { accessKeyId: id, secretAccessKey: secret, sessionToken: token }
        : { accessKeyId: id, secretAccessKey: secret };
    }
  }
  throw new Error(
    `Cannot read profile '${profile}': no aws_access_key_id and aws_secret_access_key for it in ${
      files.join(" or ")
    }`,
  );
}

/** Parses an INI file into sections of key/value pairs. */
export function parseIni(text: string): Record<string, Record<string, string>> {
  const out: Record<string, Record<string, string>> = {};
  let current: Record<string, string> | undefined;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#") || line.startsWith(";")) continue;
    const head = /^\[(.+)\]$/.exec(line);
    if (head) {
      current = out[head[1]!.trim()] ??= {};
      continue;
    }
    const eq = line.indexOf("=");
    if (current && eq > 0) current[line.slice(0, eq).trim()] = line.slice(eq + 1).trim();
  }
  return out;
}
