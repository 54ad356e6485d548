import assert from "node:assert/strict";
import { UndirectedGraph } from "graphology";
import { positionOf } from "../layout.ts";
import { arrangeLinked } from "./arrange.ts";
import { edgeStyle, linksOnHover, type MapNode, mixColour } from "./client_graph.ts";
import { MAP_COLOURS } from "./words.ts";

/** A ring of `n` agents (links to 1 and 3 places on) at `place`'s places. */
function ring(n: number, place: (address: string) => { x: number; y: number }) {
  const g = new UndirectedGraph<MapNode>();
  const name = (i: number) => `agent-${i}.example`;
  for (let i = 0; i < n; i++) {
    g.addNode(name(i), {
      ...place(name(i)),
      size: 3,
      color: MAP_COLOURS.online,
      kind: "agent",
      name: name(i),
      online: true,
      degree: 0,
    });
  }
  for (let i = 0; i < n; i++) {
    for (const d of [1, 3]) g.mergeEdge(name(i), name((i + d) % n), { size: 1 });
  }
  return g;
}

Deno.test("linksOnHover() hides many long links (hashed places), never short or few ones", () => {
  assert.equal(linksOnHover(ring(500, positionOf)), true);
  const links: [string, string][] = [];
  for (let i = 0; i < 500; i++) {
    for (const d of [1, 3]) links.push([`agent-${i}.example`, `agent-${(i + d) % 500}.example`]);
  }
  const places = arrangeLinked(links);
  assert.equal(linksOnHover(ring(500, (a) => places.get(a)!)), false);
  assert.equal(linksOnHover(ring(40, positionOf)), false, "80 links: all drawn");
});

Deno.test("edgeStyle() shows the pointed-at agent's links brighter and hides the rest when asked", () => {
  const g = ring(500, positionOf);
  const hovered = "agent-7.example";
  let shown = 0, bright = 0;
  g.forEachEdge((edge, data) => {
    const style = edgeStyle(g, undefined, edge, data, hovered, true);
    if (!style.hidden) shown++;
    if (style.color === MAP_COLOURS.hoverLink) bright++;
  });
  assert.deepEqual([shown, bright], [4, 4]);
  // Not hidden: every link shows, the pointed-at ones brighter.
  shown = 0;
  g.forEachEdge((edge, data) => {
    if (!edgeStyle(g, undefined, edge, data, hovered, false).hidden) shown++;
  });
  assert.equal(shown, 1000);
  assert.equal(mixColour(MAP_COLOURS.cellLow, MAP_COLOURS.cellHigh, 1), MAP_COLOURS.cellHigh);
});
