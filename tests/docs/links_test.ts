import assert from "node:assert/strict";
import { checkLinks, findLinks, githubSlug, headingSlugs } from "./links.ts";
import { docFiles } from "./_markdown.ts";

const ROOT = new URL("../../", import.meta.url).pathname.replace(/\/$/, "");

Deno.test("every link and anchor in README.md, CONTRIBUTING.md and docs/ resolves", async () => {
  const files = await docFiles(ROOT);
  assert.ok(files.includes("README.md") && files.includes("CONTRIBUTING.md"), files.join());
  assert.ok(files.includes("docs/README.md"), files.join());
  assert.deepEqual(await checkLinks(ROOT), []);
});

Deno.test("every page in docs/ is listed in docs/README.md", async () => {
  const index = findLinks(await Deno.readTextFile(`${ROOT}/docs/README.md`))
    .map((link) => link.target.replace(/#.*$/, ""));
  const pages = (await docFiles(ROOT))
    .filter((file) => file.startsWith("docs/") && file !== "docs/README.md")
    .map((file) => file.slice("docs/".length));
  assert.deepEqual(pages.filter((page) => !index.includes(page)), []);
});

Deno.test("githubSlug() makes GitHub's anchors of our headings", () => {
  assert.equal(githubSlug("Configuration: `agent.toml`"), "configuration-agenttoml");
  assert.equal(githubSlug("Roles: `[models.roles.<role>]`"), "roles-modelsrolesrole");
  assert.equal(
    githubSlug("Where the money went: `--by`, `--forecast` and early warnings"),
    "where-the-money-went---by---forecast-and-early-warnings",
  );
  assert.equal(
    githubSlug("Your spine on the edge platform: `agent net spine`"),
    "your-spine-on-the-edge-platform-agent-net-spine",
  );
  assert.equal(githubSlug("The messenger (Telegram)"), "the-messenger-telegram");
  assert.equal(githubSlug("See [the hub](hub.md) *now*"), "see-the-hub-now");
  assert.equal(githubSlug("Bütçe Ölçüsü 2"), "bütçe-ölçüsü-2");
  assert.equal(githubSlug("snake_case `_private` names"), "snake_case-_private-names");
});

Deno.test("headingSlugs() numbers repeated headings and skips code blocks", () => {
  const slugs = headingSlugs(
    "# Notes\n\n## Notes\n\n```sh\n# not a heading\n```\n\n### Notes ###\n#nospace\n",
  );
  assert.deepEqual([...slugs], ["notes", "notes-1", "notes-2"]);
});

Deno.test("findLinks() reads inline links, images, definitions and autolinks, not code", () => {
  const markdown = [
    'See [the hub](docs/hub.md#the-control-api) and ![map](img/map.png "Map").',
    "A link across [two",
    "lines](docs/b.md), `[code](not-a-link.md)` and <https://example.com/x>.",
    "",
    "```md",
    "[fenced](not-a-link-either.md)",
    "```",
    "",
    "[ref]: <docs/c d.md>",
  ].join("\n");
  assert.deepEqual(findLinks(markdown), [
    { line: 1, target: "docs/hub.md#the-control-api" },
    { line: 1, target: "img/map.png" },
    { line: 2, target: "docs/b.md" },
    { line: 3, target: "https://example.com/x" },
    { line: 9, target: "docs/c d.md" },
  ]);
});

Deno.test("checkLinks() names each broken link, anchor and URL in a planted tree", async () => {
  const root = await Deno.makeTempDir({ prefix: "docs_links_" });
  try {
    await Deno.mkdir(`${root}/docs`);
    await Deno.mkdir(`${root}/src`);
    await Deno.writeTextFile(`${root}/src/main.ts`, "export {};\n");
    await Deno.writeTextFile(
      `${root}/README.md`,
      [
        "# Planted",
        "",
        "## Where things live",
        "",
        "- [fine](docs/a.md), [fine anchor](docs/a.md#real-heading), [own](#where-things-live)",
        "- [gone](docs/missing.md) and [bad anchor](docs/a.md#no-such-heading)",
        "- [own bad](#nowhere), [code line](src/main.ts#L1-L3), [code bad](src/main.ts#top)",
        "- [folder](src/), [up and out](../elsewhere.md), [web](https://example.com:99999/)",
        "- [scheme](ftp://example.com/f), [mail](mailto:owner@example.com)",
        "",
        "`[in code](missing-too.md)`",
      ].join("\n"),
    );
    await Deno.writeTextFile(
      `${root}/docs/a.md`,
      "# A\n\n## Real heading\n\nBack to [the top](../README.md#planted), [b](./b.md).\n",
    );
    assert.deepEqual(await checkLinks(root), [
      "README.md:6: docs/missing.md: no such file",
      "README.md:6: docs/a.md#no-such-heading: no heading '#no-such-heading' in docs/a.md",
      "README.md:7: #nowhere: no heading '#nowhere' in README.md",
      "README.md:7: src/main.ts#top: no line anchor '#top'",
      "README.md:8: ../elsewhere.md: outside the repository",
      "README.md:8: https://example.com:99999/: not a valid URL",
      "README.md:9: ftp://example.com/f: a 'ftp:' link, which a reader of the repository cannot open",
      "docs/a.md:5: ./b.md: no such file",
    ]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
