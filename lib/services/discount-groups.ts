import { DISCOUNT_GROUP } from "../db/entities/discount-group.ts";
import {
  getJson,
  insertJson,
  type JsonPage,
  listJson,
  Params,
  type RawJson,
  sqlTransaction,
  updateJson,
} from "../db/sql.ts";
import { notFound } from "../errors.ts";
import { newId } from "../ids.ts";
import type {
  CreateDiscountGroupInput,
  DiscountGroup,
  ListDiscountGroupsQuery,
  UpdateDiscountGroupInput,
} from "../schemas/discount-group.ts";
import { lockChangeable } from "./archived.ts";

export async function getDiscountGroup(id: string): Promise<RawJson<DiscountGroup>> {
  const group = await getJson(DISCOUNT_GROUP, "t.id = $1", [id]);
  if (!group) throw notFound(id);
  return group;
}

export function createDiscountGroup(input: CreateDiscountGroupInput): Promise<RawJson<DiscountGroup>> {
  return insertJson(DISCOUNT_GROUP, { id: newId("dsg"), name: input.name }, "discount_group.created");
}

export async function updateDiscountGroup(
  id: string,
  input: UpdateDiscountGroupInput,
): Promise<RawJson<DiscountGroup>> {
  const where = { sql: "t.id = $1", values: [id] };
  const columns = { name: input.name, status: input.status };
  let updated: RawJson<DiscountGroup> | null;
  if (input.status === "active") {
    // Unarchiving (with or without other changes) is allowed whatever the current status.
    updated = await updateJson(DISCOUNT_GROUP, where, columns, "discount_group.updated");
  } else {
    // The archived rule needs the current status, locked until the update commits.
    updated = await sqlTransaction(async (client) => {
      if (!(await lockChangeable(client, "discount_groups", id, input))) return null;
      return updateJson(DISCOUNT_GROUP, where, columns, "discount_group.updated", client);
    });
  }
  if (!updated) throw notFound(id);
  return updated;
}

export function listDiscountGroups(query: ListDiscountGroupsQuery): Promise<JsonPage> {
  const params = new Params();
  // As in the API family: only active discount groups unless `status` asks for others.
  const filters = [params.oneOf("t.status", query.status ?? ["active"])];
  if (query.id) filters.push(params.oneOf("t.id", query.id));
  return listJson(DISCOUNT_GROUP, {
    filters,
    params,
    orderBy: query.order_by,
    after: query.after,
    perPage: query.per_page,
  });
}
