/**
 * The access tests every entity under a customer shares (addresses, businesses): permissions, not
 * found for unknown, foreign and malformed IDs, and the methods its paths lack.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { expectError, expectNotFound } from "./api.ts";
import { events, expectMethodsNotAllowed, expectPermission } from "./checks.ts";
import type { ChildResource, Handlers } from "./resource.ts";

export interface ChildEntityAccess {
  /** The entity's name in permissions and events, e.g. "address". */
  entity: string;
  /** The entity with its article, for test names, e.g. "an address". */
  named: string;
  /** The path segment under a customer, e.g. "addresses", and the item's parameter. */
  path: string;
  idParam: string;
  api: ChildResource;
  collection: Handlers;
  item: Handlers;
  /** The customer most tests use, and a new one. */
  customer: () => string;
  newCustomer: () => Promise<string>;
  /** Creates an entity under a customer (the second for another customer's entity). */
  make: (customer: string) => Promise<Record<string, any>>;
  makeForeign: (customer: string) => Promise<Record<string, any>>;
  /** A valid create body and a valid update body. */
  createBody: Record<string, unknown>;
  updateBody: Record<string, unknown>;
  /** An update body an attacker might send to another customer's entity. */
  hijackBody: Record<string, unknown>;
  /** Permissions that give no access to the entity. */
  otherPermissions: string[];
  unknownCustomer: string;
  unknownId: string;
  malformedCustomers: string[];
  malformedIds: string[];
}

export function describeChildEntityAccess(t: ChildEntityAccess): void {
  const { api } = t;
  const read = `${t.entity}.read`;
  const write = `${t.entity}.write`;
  const readers = [[read], [write]];

  describe("permissions", () => {
    let created: Record<string, any>;

    beforeAll(async () => {
      created = await t.make(t.customer());
    });

    it(`GET list needs ${read}`, async () => {
      await expectPermission((key) => api.list(t.customer(), "", { key }), {
        permission: read,
        denied: [t.otherPermissions],
        allowed: readers,
      });
    });

    it(`GET one needs ${read}`, async () => {
      await expectPermission((key) => api.get(t.customer(), created.id, { key }), {
        permission: read,
        denied: [t.otherPermissions],
        allowed: readers,
      });
    });

    it(`POST needs ${write}`, async () => {
      await expectPermission((key) => api.create(t.customer(), t.createBody, { key }), {
        permission: write,
        denied: [[read], t.otherPermissions],
        status: 201,
      });
    });

    it(`PATCH needs ${write}`, async () => {
      await expectPermission((key) => api.update(t.customer(), created.id, t.updateBody, { key }), {
        permission: write,
        denied: [[read], t.otherPermissions],
      });
    });

    it("every endpoint needs an API key", async () => {
      for (const res of [
        await api.list(t.customer(), "", { key: null }),
        await api.get(t.customer(), created.id, { key: null }),
        await api.create(t.customer(), t.createBody, { key: null }),
        await api.update(t.customer(), created.id, t.updateBody, { key: null }),
      ]) {
        expectError(res, 401, "invalid_token");
      }
    });
  });

  describe("not found", () => {
    let otherCustomer: string;
    let foreign: Record<string, any>;
    let own: Record<string, any>;

    beforeAll(async () => {
      otherCustomer = await t.newCustomer();
      foreign = await t.makeForeign(otherCustomer);
      own = await t.make(t.customer());
    });

    it("an unknown customer on every endpoint", async () => {
      for (const res of [
        await api.list(t.unknownCustomer),
        await api.create(t.unknownCustomer, t.createBody),
        await api.get(t.unknownCustomer, own.id),
        await api.update(t.unknownCustomer, own.id, t.updateBody),
      ]) {
        expectNotFound(res, t.unknownCustomer);
      }
    });

    it(`an unknown ${t.entity}`, async () => {
      expectNotFound(await api.get(t.customer(), t.unknownId));
      expectNotFound(await api.update(t.customer(), t.unknownId, t.updateBody));
    });

    it(`${t.named} of another customer, which stays unchanged`, async () => {
      expectNotFound(await api.get(t.customer(), foreign.id), foreign.id);
      expectNotFound(await api.update(t.customer(), foreign.id, t.hijackBody));
      expect((await api.get(otherCustomer, foreign.id)).body.data).toEqual(foreign);
      expect((await events(foreign.id)).map((row) => row.eventType)).toEqual([`${t.entity}.created`]);
    });

    it.each(t.malformedCustomers.map((id) => [id]))("a malformed customer ID %s", async (bad) => {
      expectNotFound(await api.list(bad));
      expectNotFound(await api.create(bad, t.createBody));
      expectNotFound(await api.get(bad, own.id));
      expectNotFound(await api.update(bad, own.id, t.updateBody));
    });

    it.each(t.malformedIds.map((id) => [id]))(`a malformed ${t.entity} ID %s`, async (bad) => {
      expectNotFound(await api.get(t.customer(), bad));
      expectNotFound(await api.update(t.customer(), bad, t.updateBody));
    });
  });

  describe("methods", () => {
    it("answers 405 for methods the paths lack", async () => {
      const path = `/customers/${t.customer()}/${t.path}`;
      const params = { customer_id: t.customer(), [t.idParam]: t.unknownId };
      await expectMethodsNotAllowed(t.collection, ["PUT", "PATCH", "DELETE"], path, params);
      await expectMethodsNotAllowed(t.item, ["PUT", "POST", "DELETE"], path, params);
    });
  });
}
