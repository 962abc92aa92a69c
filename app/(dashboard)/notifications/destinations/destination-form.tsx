"use client";

import { useId } from "react";
import { EntityForm, type EntityFormProps, useEntityForm } from "@/components/entity-form";
import { CheckboxField, SelectField, TextField } from "@/components/form";
import {
  type CreateNotificationSettingInput,
  type NotificationSetting,
  type TrafficSource,
  type UpdateNotificationSettingInput,
  useEventTypes,
} from "@/lib/dashboard/notifications";
import {
  createNotificationSettingBody,
  TRAFFIC_SOURCES,
  updateNotificationSettingBody,
} from "@/lib/schemas/notification-setting";
import { TRAFFIC_SOURCE_LABELS } from "../destination-text";
import { EventPicker } from "./event-picker";

const FIELDS = [
  "description",
  "destination",
  "subscribed_events",
  "traffic_source",
  "api_version",
  "include_sensitive_fields",
  "type",
] as const;

export const DESCRIPTION_MAX = 500;
export const DESTINATION_MAX = 2048;

function initialValues(destination?: NotificationSetting) {
  return {
    description: destination?.description ?? "",
    destination: destination?.destination ?? "",
    traffic_source: destination?.traffic_source ?? "platform",
    api_version: String(destination?.api_version ?? 1),
    events: new Set(destination?.subscribed_events.map((event) => event.name) ?? []),
    sensitive: destination?.include_sensitive_fields ?? false,
  };
}

const sameNames = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((n, i) => n === b[i]);

/**
 * Adds or edits a notification destination: where to send (a URL), which events (by group or one
 * by one), which traffic, the payload version and whether sensitive fields go along. The server
 * checks everything; its field errors appear beside the fields and what was typed and ticked stays.
 * Editing sends only what changed.
 */
export function DestinationForm(
  props: EntityFormProps<NotificationSetting, CreateNotificationSettingInput, UpdateNotificationSettingInput>,
) {
  const current = props.entity;
  const state = useEntityForm(props, () => initialValues(current));
  const eventsErrorId = useId();
  const eventTypes = useEventTypes();
  const { values, error, bind, set } = state;
  const { events, sensitive } = values;

  // The versions the catalogue's events are available in (and the destination's own, if older).
  const versions = [
    ...new Set([...(eventTypes.data ?? []).flatMap((type) => type.available_versions), current?.api_version ?? 1]),
  ].sort((a, b) => a - b);

  const onSubmit = (event: React.FormEvent<HTMLFormElement>) => {
    const names = [...events].sort();
    const fields = {
      description: values.description.trim(),
      destination: values.destination.trim(),
      traffic_source: values.traffic_source as TrafficSource,
      api_version: Number(values.api_version),
    };
    return state.submit(event, {
      fields: FIELDS,
      schemas: { create: createNotificationSettingBody, update: updateNotificationSettingBody },
      // `subscribed_events[2]` names the event: "customer.typo: …" beside the events.
      rename: (field) =>
        field.replace(/^subscribed_events\[(\d+)\]/, (whole, index: string) =>
          names[Number(index)] ? `subscribed_events.${names[Number(index)]}` : whole,
        ),
      create: () => ({
        ...fields,
        type: "url",
        subscribed_events: names,
        include_sensitive_fields: sensitive,
      }),
      update: (destination) => {
        const body: UpdateNotificationSettingInput = {};
        if (fields.description !== destination.description) body.description = fields.description;
        if (fields.destination !== destination.destination) body.destination = fields.destination;
        if (fields.traffic_source !== destination.traffic_source) body.traffic_source = fields.traffic_source;
        if (fields.api_version !== destination.api_version) body.api_version = fields.api_version;
        if (sensitive !== destination.include_sensitive_fields) body.include_sensitive_fields = sensitive;
        const before = destination.subscribed_events.map((e) => e.name).sort();
        if (!sameNames(names, before)) body.subscribed_events = names;
        return body;
      },
    });
  };

  return (
    <EntityForm
      noun="destination"
      editing={Boolean(current)}
      state={state}
      onSubmit={onSubmit}
      onCancel={props.onCancel}
    >
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <TextField
          label="Description"
          required
          autoComplete="off"
          maxLength={DESCRIPTION_MAX}
          {...bind("description")}
          hint="What receives these notifications, such as Production order service."
        />
        {current?.type === "email" ? (
          // Made through the API: the dashboard makes URL destinations only, but edits either.
          <TextField
            label="Email address"
            required
            type="email"
            autoComplete="off"
            maxLength={DESTINATION_MAX}
            {...bind("destination")}
          />
        ) : (
          <TextField
            label="Endpoint URL"
            required
            type="url"
            inputMode="url"
            autoComplete="off"
            spellCheck={false}
            maxLength={DESTINATION_MAX}
            placeholder="https://example.com/webhooks/billing"
            {...bind("destination")}
            hint="Receives an HTTP POST with a JSON body for each event. Answer with a 2xx status within 5 seconds."
          />
        )}
        <SelectField
          label="Traffic source"
          {...bind("traffic_source")}
          hint="Simulated events come from the simulator; a destination must accept them to be simulated to."
        >
          {TRAFFIC_SOURCES.map((source) => (
            <option key={source} value={source}>
              {TRAFFIC_SOURCE_LABELS[source]}
            </option>
          ))}
        </SelectField>
        <SelectField label="API version" {...bind("api_version")} hint="The shape of the entities in the payloads.">
          {versions.map((version) => (
            <option key={version} value={String(version)}>
              Version {version}
            </option>
          ))}
        </SelectField>
        <CheckboxField
          label="Include sensitive fields"
          checked={sensitive}
          onChange={(event) => set("sensitive", event.target.checked)}
          error={error("include_sensitive_fields")}
          hint="Adds fields that may hold personal or payment data to the payloads. Leave off unless the endpoint needs them."
          className="sm:col-span-2"
        />
      </div>
      <EventPicker
        selected={events}
        onChange={(names) => set("events", names)}
        error={error("subscribed_events")}
        errorId={eventsErrorId}
      />
    </EntityForm>
  );
}
