/**
 * Clients for one API resource (a collection path and an item path) in integration tests: create,
 * get, update, list, following `next` and walking every page. Requests use an admin key (every
 * permission, made once per test file) unless given a key; `null` sends none.
 */
import { expect } from "vitest";
import { type ApiResult, call, type Handler, nextPath, testKey } from "./api.ts";

/** A route module's handlers. */
export type Handlers = Partial<Record<"GET" | "POST" | "PUT" | "PATCH" | "DELETE", Handler>>;

/** A key for a request: a key, `null` for none, `undefined` for the admin key. */
export type Key = string | null | undefined;

let adminKey: string | undefined;

/** A key with every permission, made once per test file. */
export async function admin(): Promise<string> {
  adminKey ??= await testKey();
  return adminKey;
}

/** The key to send: the admin key for `undefined`. */
export async function keyOf(key: Key): Promise<string | null> {
  return key === undefined ? admin() : key;
}

function handler(handlers: Handlers, method: keyof Handlers): Handler {
  const h = handlers[method];
  if (!h) throw new Error(`no ${method} handler`);
  return h;
}

/** The IDs of a list page, in order. */
export function ids(res: ApiResult): string[] {
  return (res.body.data as { id: string }[]).map((x) => x.id);
}

export interface Resource {
  create(body: unknown, key?: Key): Promise<ApiResult>;
  get(id: string, query?: string, key?: Key): Promise<ApiResult>;
  update(id: string, body: unknown, key?: Key): Promise<ApiResult>;
  list(query?: string, key?: Key): Promise<ApiResult>;
  /** The next page, from `meta.pagination.next`. */
  follow(res: ApiResult, key?: Key): Promise<ApiResult>;
  /** Every page of a list, following `next`: each page 200, at most `maxPages` of them. */
  walk(query: string, maxPages?: number): Promise<{ ids: string[]; pages: number }>;
}

/**
 * A resource at `path` (e.g. "/products"), its item at `path/{id}` with the ID in `idParam`.
 */
export function resource(path: string, idParam: string, collection: Handlers, item: Handlers): Resource {
  const self: Resource = {
    create: async (body, key) => call(handler(collection, "POST"), "POST", path, { key: await keyOf(key), body }),
    get: async (id, query = "", key) =>
      call(handler(item, "GET"), "GET", `${path}/${id}${query}`, { key: await keyOf(key), params: { [idParam]: id } }),
    update: async (id, body, key) =>
      call(handler(item, "PATCH"), "PATCH", `${path}/${id}`, {
        key: await keyOf(key),
        body,
        params: { [idParam]: id },
      }),
    list: async (query = "", key) =>
      call(handler(collection, "GET"), "GET", `${path}${query}`, { key: await keyOf(key) }),
    follow: async (res, key) =>
      call(handler(collection, "GET"), "GET", nextPath(res.body.meta.pagination.next), { key: await keyOf(key) }),
    walk: (query, maxPages = 49) => walkPages(() => self.list(query), self.follow, maxPages),
  };
  return self;
}

/** Every page from `first` on, following `next` with `follow`. */
export async function walkPages(
  first: () => Promise<ApiResult>,
  follow: (res: ApiResult) => Promise<ApiResult>,
  maxPages = 49,
): Promise<{ ids: string[]; pages: number }> {
  let res = await first();
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const seen = [...ids(res)];
  let pages = 1;
  while (res.body.meta.pagination.has_more) {
    res = await follow(res);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    seen.push(...ids(res));
    pages += 1;
    expect(pages).toBeLessThanOrEqual(maxPages);
  }
  return { ids: seen, pages };
}

export interface ChildOptions {
  key?: Key;
}

export interface ChildResource {
  create(parent: string, body: unknown, options?: ChildOptions): Promise<ApiResult>;
  list(parent: string, query?: string, options?: ChildOptions): Promise<ApiResult>;
  get(parent: string, id: string, options?: ChildOptions): Promise<ApiResult>;
  update(parent: string, id: string, body: unknown, options?: ChildOptions): Promise<ApiResult>;
}

/**
 * A resource under a parent entity: `parentPath/{parent}/path` (e.g. "/customers", "addresses"),
 * the parent's ID in `parentParam` and the item's in `idParam`.
 */
export function childResource(
  parentPath: string,
  parentParam: string,
  path: string,
  idParam: string,
  collection: Handlers,
  item: Handlers,
): ChildResource {
  const base = (parent: string) => `${parentPath}/${parent}/${path}`;
  return {
    create: async (parent, body, options = {}) =>
      call(handler(collection, "POST"), "POST", base(parent), {
        key: await keyOf(options.key),
        body,
        params: { [parentParam]: parent },
      }),
    list: async (parent, query = "", options = {}) =>
      call(handler(collection, "GET"), "GET", `${base(parent)}${query}`, {
        key: await keyOf(options.key),
        params: { [parentParam]: parent },
      }),
    get: async (parent, id, options = {}) =>
      call(handler(item, "GET"), "GET", `${base(parent)}/${id}`, {
        key: await keyOf(options.key),
        params: { [parentParam]: parent, [idParam]: id },
      }),
    update: async (parent, id, body, options = {}) =>
      call(handler(item, "PATCH"), "PATCH", `${base(parent)}/${id}`, {
        key: await keyOf(options.key),
        body,
        params: { [parentParam]: parent, [idParam]: id },
      }),
  };
}
