import assert from "node:assert/strict";
import { buildSystemParts, buildSystemPrompt } from "./prompt.ts";

Deno.test("buildSystemPrompt() joins persona, user section and the Now block", async () => {
  const dir = Deno.makeTempDirSync();
  try {
    Deno.writeTextFileSync(`${dir}/persona.md`, "You are Ada's agent.\n");
    Deno.writeTextFileSync(`${dir}/user.md`, "Ada lives in Izmir.\n");
    Deno.writeTextFileSync(`${dir}/net.md`, "Ada likes chess.\n");
    const now = Date.UTC(2026, 10, 22, 10, 30);
    const owner = await buildSystemPrompt(
      { personaFile: `${dir}/persona.md`, userFile: `${dir}/user.md` },
      {
        nowMs: now,
        profile: "home",
        hostRole: "local machine (box)",
        budgetLine: "Budget: unknown.",
      },
    );
    assert.equal(
      owner,
      "You are Ada's agent.\n\n## User\n\nAda lives in Izmir.\n\n## Now\n\n" +
        "- Time: 22.11.2026 13:30 (Europe/Istanbul)\n- Profile: home\n" +
        "- Host role: local machine (box)\n- Budget: unknown.\n",
    );
    const net = await buildSystemPrompt(
      {
        personaFile: `${dir}/persona.md`,
        userFile: `${dir}/user.md`,
        publicNoteFile: `${dir}/net.md`,
      },
      { nowMs: now, profile: "home", hostRole: "not shared with other agents" },
    );
    assert.ok(net.includes("Ada likes chess."));
    assert.ok(!net.includes("Izmir"), "user.md never enters a network prompt");
    assert.ok(!net.includes("Budget"));
    assert.ok(net.includes("- Host role: not shared with other agents"));
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("buildSystemParts() keeps the Now block apart from the stable persona and user section", async () => {
  const dir = Deno.makeTempDirSync();
  try {
    Deno.writeTextFileSync(`${dir}/persona.md`, "You are Ada's agent.\n");
    Deno.writeTextFileSync(`${dir}/user.md`, "Ada lives in Izmir.\n");
    const files = { personaFile: `${dir}/persona.md`, userFile: `${dir}/user.md` };
    const at = (nowMs: number, budgetLine: string) =>
      buildSystemParts(files, { nowMs, profile: "home", hostRole: "box", budgetLine });
    const first = await at(Date.UTC(2026, 10, 22, 10, 30), "Budget: brain $0.00 of $5.00");
    const later = await at(Date.UTC(2026, 10, 22, 11, 45), "Budget: brain $0.10 of $5.00");
    assert.equal(first.stable, "You are Ada's agent.\n\n## User\n\nAda lives in Izmir.");
    assert.equal(later.stable, first.stable, "the cacheable part does not change between turns");
    assert.ok(later.now.startsWith("## Now\n\n- Time: 22.11.2026 14:45"));
    assert.ok(later.now.endsWith("- Budget: brain $0.10 of $5.00\n"));
    const whole = await buildSystemPrompt(files, {
      nowMs: Date.UTC(2026, 10, 22, 11, 45),
      profile: "home",
      hostRole: "box",
      budgetLine: "Budget: brain $0.10 of $5.00",
    });
    assert.equal(whole, `${later.stable}\n\n${later.now}`);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
