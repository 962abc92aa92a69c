"use client";

import { changes, EntityForm, type EntityFormProps, useEntityForm } from "@/components/entity-form";
import { TextField } from "@/components/form";
import type { DiscountGroup } from "@/lib/dashboard/catalogue";
import {
  type CreateDiscountGroupInput,
  createDiscountGroupBody,
  type UpdateDiscountGroupInput,
  updateDiscountGroupBody,
} from "@/lib/schemas/discount-group";

/** Creates or renames a discount group. */
export function DiscountGroupForm(
  props: EntityFormProps<DiscountGroup, CreateDiscountGroupInput, UpdateDiscountGroupInput>,
) {
  const group = props.entity;
  const state = useEntityForm(props, () => ({ name: group?.name ?? "" }));
  const onSubmit = (event: React.FormEvent<HTMLFormElement>) => {
    const full = { name: state.values.name.trim() };
    return state.submit(event, {
      fields: ["name"],
      schemas: { create: createDiscountGroupBody, update: updateDiscountGroupBody },
      create: () => full,
      update: (current) => changes(full, current),
    });
  };

  return (
    <EntityForm
      noun="discount group"
      editing={Boolean(group)}
      submitLabel={{ add: "Create group", save: "Save group" }}
      state={state}
      onSubmit={onSubmit}
      onCancel={props.onCancel}
    >
      <TextField
        label="Name"
        required
        autoComplete="off"
        maxLength={100}
        {...state.bind("name")}
        hint="For you and your team, such as Black Friday 2025. A discount belongs to at most one group."
        className="max-w-md"
      />
    </EntityForm>
  );
}
