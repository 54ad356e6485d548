import assert from "node:assert/strict";
import { CloudSpine } from "./spine_files.ts";

Deno.test("CloudSpine never uses a listed name outside the file set, and never reads one", async () => {
  const asked: string[] = [];
  const fetcher = (input: string | URL | Request) => {
    const url = String(input instanceof Request ? input.url : input);
    asked.push(new URL(url).pathname);
    return Promise.resolve(Response.json({
      files: [
        { name: "agent.toml", size: 3, updated_at: 1 },
        { name: ".env", size: 9, updated_at: 1 },
        { name: "persona/subs/../../x.md", size: 1, updated_at: 1 },
        { name: "persona/subs/ok.md", size: 1, updated_at: 1 },
      ],
    }));
  };
  const spine = new CloudSpine("https://spine.example/", "t", "en", {
    fetch: fetcher as typeof fetch,
  });
  const { files, outside } = await spine.files();
  assert.deepEqual(files.map((f) => f.name), ["agent.toml", "persona/subs/ok.md"]);
  assert.deepEqual(outside, [".env", "persona/subs/../../x.md"]);
  await assert.rejects(() => spine.read(".env"), TypeError);
  await assert.rejects(() => spine.write("persona/other.md", "x"), TypeError);
  assert.deepEqual(asked, ["/hub/files"]);
});
