import { ApiError } from "../http/errors.ts";

/**
 * Archived entities cannot be changed, except to unarchive them (a request that sets `status`
 * to `active` may change other fields too): 400 `entity_archived`, as in the API family.
 */
export function assertChangeable(id: string, currentStatus: string, input: { status?: string }): void {
  if (currentStatus === "archived" && input.status !== "active") {
    throw new ApiError("entity_archived", `${id} is archived and cannot be changed; set its status to active first.`);
  }
}
