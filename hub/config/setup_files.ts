/**
 * The files `agent init` writes besides `agent.toml`: persona templates (en, tr) and
 * `.env.example`, plus the text rewrite of the template's brain and fast models.
 *
 * @module
 */
import type { Lang } from "../i18n.ts";

/** `persona/persona.md` per language. */
export const PERSONA: Record<Lang, string> = {
  en: `# Persona

You are a personal agent working for one person, your owner. You are direct,
warm and brief. You say what you know and what you do not. You never invent
facts, prices or dates. When a task costs money or cannot be undone, you ask
first.

Answer in the language your owner writes in.
`,
  tr: `# Kişilik

Tek bir kişi, sahibin için çalışan kişisel bir ajansın. Doğrudan, sıcak ve kısa
konuşursun. Bildiğini ve bilmediğini söylersin. Olgu, fiyat ya da tarih
uydurmazsın. Para harcayan ya da geri alınamayan bir işten önce sorarsın.

Sahibin hangi dilde yazıyorsa o dilde yanıt ver.
`,
};

/** `persona/user.example.md` per language (copied to `user.md` when that is missing). */
export const USER_EXAMPLE: Record<Lang, string> = {
  en: `# About me

Write here what the agent should know about you: your name, where you live,
your time zone, your work, how you like answers (short, detailed, with sources).
This file stays on your machine and never goes to the agent network.

- Name:
- Time zone: Europe/Istanbul
- Work:
- Answers I like:
`,
  tr: `# Hakkımda

Ajanın sizin hakkınızda bilmesi gerekenleri buraya yazın: adınız, yaşadığınız
yer, saat diliminiz, işiniz, nasıl yanıt sevdiğiniz (kısa, ayrıntılı, kaynaklı).
Bu dosya makinenizde kalır ve ajan ağına asla gitmez.

- Ad:
- Saat dilimi: Europe/Istanbul
- İş:
- Sevdiğim yanıtlar:
`,
};

/** `.env.example`: every variable name the agent reads, without values. */
export const ENV_EXAMPLE =
  `# Variable names the agent reads from .env (or the environment, which wins).
# Copy a line into .env (mode 0600) and fill in the value; never put keys in
# agent.toml. 'agent doctor' warns about names in .env that are not listed here.

# vendor-a (Anthropic Messages API). A key not scoped to a workspace also needs
# VENDOR_A_WORKSPACE_ID.
VENDOR_A_API_KEY=
VENDOR_A_WORKSPACE_ID=

# vendor-b (OpenAI Chat Completions API)
VENDOR_B_API_KEY=

# vendor-c (Google Gemini API): either name works.
VENDOR_C_API_KEY=
VENDOR_C_ALT_API_KEY=

# vendor-d (Amazon Bedrock Converse): the region plus one of a profile, an
# access key pair (with a session token for temporary keys) or a bearer token.
VENDOR_D_REGION=
VENDOR_D_PROFILE=
VENDOR_D_ACCESS_KEY_ID=
VENDOR_D_SECRET_ACCESS_KEY=
VENDOR_D_SESSION_TOKEN=
VENDOR_D_BEARER_TOKEN=

# local-runtime (a local model server; default http://127.0.0.1:11434)
AGENT_LOCAL_RUNTIME_URL=

# The messenger channel
MESSENGER_BOT_TOKEN=
MESSENGER_ALLOWED_CHAT_IDS=
MESSENGER_API_ROOT=
MESSENGER_WEBHOOK_SECRET=

# The web_search tool ([tools.search] in agent.toml): the provider's key
SEARCH_API_KEY=
# The e-mail channel ([email] in agent.toml): the mailbox's login. The user name
# defaults to [email] address.
EMAIL_USERNAME=
EMAIL_PASSWORD=

# The agent network
AGENT_SPINE_URL=
AGENT_SPINE_TOKEN=
AGENT_NET_IDENTITY=
AGENT_NET_ALLOW_INSECURE=

# This agent
AGENT_PROFILE=
AGENT_LANG=
AGENT_DATA_DIR=
`;

/**
 * Every variable the agent itself reads (the names of {@linkcode ENV_EXAMPLE}): never
 * handed to an MCP server or a tool's child, whatever `agent.toml` says.
 *
 * @example
 * ```ts
 * import { AGENT_VARIABLES } from "./setup_files.ts";
 * if (!AGENT_VARIABLES.includes("AGENT_SPINE_TOKEN")) throw new Error();
 * ```
 */
export const AGENT_VARIABLES: readonly string[] = [...ENV_EXAMPLE.matchAll(/^([A-Z0-9_]+)=/gm)]
  .map((m) => m[1]!);

/** What {@linkcode rewriteTemplate} changes. */
export interface TemplateChoice {
  provider: string;
  brain: string;
  fast: string;
  lang: Lang;
  /** Added to brain and fast as `params = { reasoning_effort = ... }` when set. */
  reasoning_effort?: string;
}

/**
 * Rewrites `provider` and `model_id` of `[models.roles.brain]`, `[models.roles.fast]`
 * and `[models.roles.memory]` (the fast model) (adding their `params` line when the choice has a reasoning
 * effort) and `[ui] lang` in the template text, leaving every other line (comments,
 * budgets, the local role) as it is.
 */
export function rewriteTemplate(text: string, choice: TemplateChoice): string {
  const out: string[] = [];
  let section = "";
  for (const line of text.split("\n")) {
    const header = line.match(/^\s*\[([^\]]+)\]\s*(#.*)?$/);
    if (header) {
      section = header[1]!.replace(/\s+/g, "");
      out.push(line);
      continue;
    }
    // The memory role runs on the fast model.
    const role = section === "models.roles.brain"
      ? "brain"
      : section === "models.roles.fast" || section === "models.roles.memory"
      ? "fast"
      : undefined;
    if (role !== undefined) {
      const next = replaceValue(
        replaceValue(line, "provider", choice.provider),
        "model_id",
        choice[role],
      );
      out.push(next);
      if (/^\s*model_id\s*=/.test(line) && choice.reasoning_effort !== undefined) {
        out.push(`params = { reasoning_effort = ${JSON.stringify(choice.reasoning_effort)} }`);
      }
    } else if (section === "ui") {
      out.push(replaceValue(line, "lang", choice.lang));
    } else {
      out.push(line);
    }
  }
  return out.join("\n");
}

function replaceValue(line: string, key: string, value: string): string {
  const pattern = new RegExp(`^(\\s*${key}\\s*=\\s*)"[^"]*"(.*)$`);
  return line.replace(
    pattern,
    (_m, head: string, tail: string) => `${head}${JSON.stringify(value)}${tail}`,
  );
}
