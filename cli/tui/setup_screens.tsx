/**
 * The screens before (or beside) the chat: setup, when `agent.toml` is missing (the
 * same code as `agent init`: language, provider with the keys it found, confirm), and
 * settings, which lists what each role needs and takes a key with hidden input into
 * `.env` (0600).
 *
 * @module
 */
import { Box, Text } from "ink";
import { useEffect } from "./react.ts";
import { useKeys, useLive } from "./keys.ts";
import { hasCredentials, type Lang } from "@agent/hub/base";
import type { ShippedProvider } from "@agent/hub/config";
import { t } from "./_messages.ts";

/** Props of {@linkcode SetupScreen}. */
export interface SetupScreenProps {
  lang: Lang;
  home: string;
  providers: readonly ShippedProvider[];
  env: Readonly<Record<string, string | undefined>>;
  /** The provider `agent init` would choose. */
  preferred: ShippedProvider;
  /** Writes the home (`setupHome`); then the TUI goes on. */
  onDone(choice: { language: Lang; provider: ShippedProvider }): void;
  /** Esc: the TUI exits 2. */
  onQuit(): void;
}

/** Setup: language, then provider, then confirm. */
export function SetupScreen(props: SetupScreenProps) {
  // Each key of a read sees what the one before it left (see keys.ts).
  const [step, setStep, stepNow] = useLive<"language" | "provider" | "confirm">("language");
  const [language, setLanguage, languageNow] = useLive<Lang>(props.lang);
  const [index, setIndex, indexNow] = useLive(
    Math.max(0, props.providers.indexOf(props.preferred)),
  );
  const lang = language;
  const languages: Lang[] = ["en", "tr"];

  useKeys((_char, key) => {
    if (key.escape) return props.onQuit();
    const step = stepNow();
    if (step === "language") {
      if (key.upArrow || key.downArrow) setLanguage((l) => (l === "en" ? "tr" : "en"));
      if (key.return) setStep("provider");
    } else if (step === "provider") {
      const n = props.providers.length;
      if (key.upArrow) setIndex((i) => (i - 1 + n) % n);
      if (key.downArrow) setIndex((i) => (i + 1) % n);
      if (key.return) setStep("confirm");
    } else if (key.return) {
      props.onDone({ language: languageNow(), provider: props.providers[indexNow()]! });
    }
  });

  return (
    <Box flexDirection="column" borderStyle="round" paddingX={1}>
      <Text bold>{t(lang, "setup_title", { home: props.home })}</Text>
      {step === "language" && (
        <Box flexDirection="column">
          <Text>{t(lang, "setup_language")}</Text>
          {languages.map((l) => (
            <Text key={l} color={l === language ? "green" : "white"}>
              {l === language ? "▸ " : "  "}
              {l === "en" ? "English (en)" : "Türkçe (tr)"}
            </Text>
          ))}
        </Box>
      )}
      {step === "provider" && (
        <Box flexDirection="column">
          <Text>{t(lang, "setup_provider")}</Text>
          {props.providers.map((p, i) => (
            <Text key={p} color={i === index ? "green" : "white"}>
              {i === index ? "▸ " : "  "}
              {p}
              {p === "fake"
                ? ""
                : `  (${t(lang, hasCredentials(p, props.env) ? "setup_found" : "setup_no_key")})`}
            </Text>
          ))}
        </Box>
      )}
      {step === "confirm" && (
        <Text>
          {t(lang, "setup_confirm", { provider: props.providers[index]!, lang: language })}
        </Text>
      )}
      <Text color="gray">{t(lang, "setup_keys")}</Text>
    </Box>
  );
}

/** One line of the settings screen: a variable, its state, the roles that read it. */
export interface SettingLine {
  /** The variable's name. */
  value: string;
  /** The roles whose provider reads it, as `role (provider model)`, joined. */
  label: string;
  /** `needed`, `set` or `optional`. */
  state?: string | undefined;
}

/** Props of {@linkcode SettingsScreen}. */
export interface SettingsScreenProps {
  lang: Lang;
  envFile: string;
  /** What each role needs now (read again after each save). */
  load(): Promise<readonly SettingLine[]>;
  /** Saves the key `name` (into `.env`, 0600); resolves once it is written. */
  save(name: string, value: string): Promise<void>;
  /** What Esc does: `quit` before the chat opened (exit 2), `chat` from `/settings`. */
  back: "quit" | "chat";
  /** A key was saved (the TUI checks whether the chat can start now). */
  onSaved(name: string): void;
  onBack(): void;
}

/** Settings: what each role needs; Enter takes a key with hidden input. */
export function SettingsScreen(props: SettingsScreenProps) {
  const { lang } = props;
  // Each key of a read sees what the one before it left: ↓ then Enter in one read opens
  // the row ↓ moved to (see keys.ts).
  const [index, setIndex, indexNow] = useLive(0);
  const [typing, setTyping, typingNow] = useLive<string | undefined>(undefined);
  const [value, setValue, valueNow] = useLive("");
  const [note, setNote] = useLive<string | undefined>(undefined);
  // Empty until the first load: "no key is needed" is not said before it is known.
  const [lines, setLines, linesNow] = useLive<readonly SettingLine[] | undefined>(undefined);
  const reload = () => void props.load().then(setLines);
  useEffect(reload, []);

  useKeys((char, key) => {
    const typing = typingNow();
    if (typing !== undefined) {
      if (key.escape) {
        setTyping(undefined);
        setValue("");
      } else if (key.return) {
        const name = typing;
        const secret = valueNow().trim();
        setTyping(undefined);
        setValue("");
        if (secret === "") return setNote(t(lang, "settings_empty"));
        void props.save(name, secret).then(() => {
          setNote(t(lang, "settings_saved", { name, file: props.envFile }));
          reload();
          props.onSaved(name);
        });
      } else if (key.backspace || key.delete) {
        setValue((v) => v.slice(0, -1));
      } else if (char && !key.ctrl && !key.meta) {
        setValue((v) => v + char);
      }
      return;
    }
    if (key.escape) return props.onBack();
    if (key.ctrl && (char === "c" || char === "d")) return props.onBack();
    const shown = linesNow() ?? [];
    const n = shown.length;
    if (n === 0) return;
    if (key.upArrow) setIndex((i) => (i - 1 + n) % n);
    if (key.downArrow) setIndex((i) => (i + 1) % n);
    if (key.return) setTyping(shown[indexNow()]!.value);
  });

  return (
    <Box flexDirection="column" borderStyle="round" paddingX={1}>
      <Text bold>{t(lang, "settings_title", { file: props.envFile })}</Text>
      {lines?.length === 0 && <Text>{t(lang, "settings_nothing")}</Text>}
      {(lines ?? []).map((line, i) => (
        <Text key={line.value} color={i === index ? "green" : "white"}>
          {i === index ? "▸ " : "  "}
          {line.value}: {stateWord(lang, line.state)} · {line.label}
        </Text>
      ))}
      {typing !== undefined && (
        <Text color="yellow">
          {t(lang, "settings_prompt", { name: typing, dots: "•".repeat(value.length) })}
        </Text>
      )}
      {note !== undefined && <Text color="cyan">{note}</Text>}
      <Text color="gray">
        {t(lang, "settings_keys", {
          back: t(lang, props.back === "quit" ? "settings_back_quit" : "settings_back_chat"),
        })}
      </Text>
    </Box>
  );
}

/** A credential's state in the UI language (`needed`, `set`, `not set (optional)`). */
function stateWord(lang: Lang, state: string | undefined): string {
  return t(
    lang,
    state === "needed" ? "settings_needed" : state === "set" ? "settings_set" : "settings_optional",
  );
}
