import assert from "node:assert/strict";
import { errorResponse, HttpError } from "./http.ts";
import { Router } from "./router.ts";

const echo =
  (name: string) => (_request: Request, { params }: { params: Record<string, string> }) =>
    Response.json({ name, params });

async function call(router: Router, method: string, path: string) {
  try {
    const res = await router.handle(new Request(`http://x${path}`, { method }), undefined);
    return res === undefined ? "none" : { status: res.status, body: await res.json() };
  } catch (error) {
    const res = errorResponse(error);
    return { status: res.status, allow: res.headers.get("allow"), body: await res.json() };
  }
}

Deno.test("Router.handle() picks the route by path and method, with :params and a * tail", async () => {
  const router = new Router()
    .get("/", echo("root"))
    .get("/items", echo("list"))
    .post("/items", echo("create"))
    .get("/items/:id", echo("one"))
    .put("/items/:id/parts/:part", echo("part"))
    .get("/files/*", echo("files"));
  assert.deepEqual(await call(router, "GET", "/"), {
    status: 200,
    body: { name: "root", params: {} },
  });
  assert.deepEqual(await call(router, "POST", "/items"), {
    status: 200,
    body: { name: "create", params: {} },
  });
  assert.deepEqual(await call(router, "HEAD", "/items"), {
    status: 200,
    body: { name: "list", params: {} },
  });
  assert.deepEqual(await call(router, "GET", "/items/a%20b"), {
    status: 200,
    body: { name: "one", params: { id: "a%20b" } },
  });
  assert.deepEqual(await call(router, "PUT", "/items/7/parts/x"), {
    status: 200,
    body: { name: "part", params: { id: "7", part: "x" } },
  });
  assert.deepEqual(await call(router, "GET", "/files/a/b.txt"), {
    status: 200,
    body: { name: "files", params: { "*": "a/b.txt" } },
  });
  assert.deepEqual(await call(router, "GET", "/files/"), {
    status: 200,
    body: { name: "files", params: { "*": "" } },
  });
});

Deno.test("Router.handle() answers a known path under another method 405 with Allow, an unknown path nothing", async () => {
  const router = new Router().get("/items", echo("list")).post("/items", echo("create"))
    .on("GET", "/events", echo("events"));
  assert.deepEqual(await call(router, "DELETE", "/items"), {
    status: 405,
    allow: "GET, HEAD, POST",
    body: { error: "method_not_allowed" },
  });
  // A stream has no HEAD: only what the route names.
  assert.deepEqual(await call(router, "HEAD", "/events"), {
    status: 405,
    allow: "GET",
    body: { error: "method_not_allowed" },
  });
  for (const path of ["/nope", "/items/", "/items/x", "/item", "//items", "/events/more"]) {
    assert.equal(await call(router, "GET", path), "none", path);
  }
  // An empty :param segment is no match.
  const one = new Router().get("/items/:id", echo("one"));
  assert.equal(await call(one, "GET", "/items/"), "none");
});

Deno.test("Router: all() takes any method, the first matching row wins, options.path matches below a prefix", async () => {
  const router = new Router<string>()
    .post("/login", (_r, { context }) => Response.json({ name: "login", context }))
    .all("/*", (request) => Response.json({ name: "any", method: request.method }));
  const post = await router.handle(new Request("http://x/base/login", { method: "POST" }), "ctx", {
    path: "/login",
  });
  assert.deepEqual(await post!.json(), { name: "login", context: "ctx" });
  const other = await router.handle(new Request("http://x/login", { method: "PATCH" }), "ctx");
  assert.deepEqual(await other!.json(), { name: "any", method: "PATCH" });
  assert.deepEqual(router.routes, [
    { methods: ["POST"], pattern: "/login" },
    { methods: ["*"], pattern: "/*" },
  ]);
});

Deno.test("Router.on() refuses a pattern without a leading slash or with * inside", () => {
  assert.throws(() => new Router().get("items", echo("x")), TypeError);
  assert.throws(() => new Router().get("/a/*/b", echo("x")), TypeError);
});

Deno.test("Router.handle() lets a handler's HttpError through for the surface's errorResponse()", async () => {
  const router = new Router().get("/x", () => {
    throw new HttpError(409, "conflict");
  });
  assert.deepEqual(await call(router, "GET", "/x"), {
    status: 409,
    allow: null,
    body: { error: "conflict" },
  });
});
