"use client";

import type { UseQueryResult } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { FormShell, useForm } from "@/components/entity-form";
import { SelectField, TextField } from "@/components/form";
import { ErrorState, LoadingBlock } from "@/components/states";
import { InlineMessage } from "@/components/toast";
import {
  type Simulation,
  type SimulationType,
  useCreateSimulation,
  useStartSimulationRun,
} from "@/lib/dashboard/notifications";
import { createSimulationBody, SIMULATION_NAME_MAX } from "@/lib/schemas/simulation";
import { TRAFFIC_SOURCE_LABELS, type useDestinations } from "../destination-text";

const FIELDS = ["notification_setting_id", "type", "name"] as const;

/** Scenarios first, then single events by group. */
function typeGroups(types: readonly SimulationType[]): { label: string; types: SimulationType[] }[] {
  const groups = new Map<string, SimulationType[]>();
  for (const type of types) {
    const label = type.type === "scenario" ? "Scenarios" : `${type.group} events`;
    groups.set(label, [...(groups.get(label) ?? []), type]);
  }
  return [...groups]
    .map(([label, list]) => ({ label, types: list }))
    .sort((a, b) => Number(b.label === "Scenarios") - Number(a.label === "Scenarios"));
}

/**
 * Makes a simulation (a destination, what to send, a name) and starts a run of it at once. Only
 * destinations that accept simulated traffic can be chosen; the others are listed, disabled, with
 * why. The server has the last word: its field errors appear beside the fields.
 */
export function SimulationForm({
  initialDestination = "",
  types,
  destinations,
  onStarted,
}: {
  /** A destination chosen before the form opens (a destination's "Send test event"). */
  initialDestination?: string;
  types: UseQueryResult<SimulationType[]>;
  destinations: ReturnType<typeof useDestinations>;
  onStarted: (simulation: Simulation, runId: string) => void;
}) {
  const accepting = destinations.destinations.filter((d) => d.traffic_source !== "platform");
  const state = useForm(() => ({ destination: initialDestination, type: "", name: "", nameEdited: false }), {
    autoFocus: false,
  });
  const { values, set, error } = state;
  // The simulation made by the last submit: sending the same again runs it again, not a copy.
  const [made, setMade] = useState<{ key: string; simulation: Simulation } | null>(null);
  const create = useCreateSimulation();
  const start = useStartSimulationRun();

  const chosenDestination =
    (accepting.some((d) => d.id === values.destination) ? values.destination : "") || accepting[0]?.id || "";
  const list = types.data ?? [];
  const chosenType = list.find((t) => t.name === values.type) ?? list[0];
  const shownName = values.nameEdited ? values.name : (chosenType?.label ?? "");

  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const input = { notification_setting_id: chosenDestination, type: chosenType?.name ?? "", name: shownName.trim() };
    return state.run({
      fields: FIELDS,
      schema: createSimulationBody,
      body: input,
      send: async (body) => {
        const key = JSON.stringify(body);
        const simulation = made?.key === key ? made.simulation : await create.mutateAsync(body);
        setMade({ key, simulation });
        const run = await start.mutateAsync(simulation.id);
        onStarted(simulation, run.id);
      },
    });
  }

  if (destinations.list.isLoading || types.isLoading) return <LoadingBlock label="Loading the simulator…" lines={3} />;
  if (types.error) {
    return (
      <ErrorState error={types.error} title="Could not load the simulation types" onRetry={() => types.refetch()} />
    );
  }
  if (destinations.list.error) {
    return (
      <ErrorState
        error={destinations.list.error}
        title="Could not load the destinations"
        onRetry={() => destinations.list.refetch()}
      />
    );
  }
  if (accepting.length === 0) {
    return (
      <InlineMessage tone="info" title="No destination accepts simulated events">
        {destinations.destinations.length === 0 ? "Add a destination" : "Edit a destination"} and set its traffic source
        to “{TRAFFIC_SOURCE_LABELS.simulation}” or “{TRAFFIC_SOURCE_LABELS.all}”, then come back here.{" "}
        <Link href="/notifications/destinations" className="font-medium underline">
          Go to destinations
        </Link>
      </InlineMessage>
    );
  }

  return (
    <FormShell
      label="New simulation"
      submitLabel="Run simulation"
      pendingLabel="Starting…"
      state={state}
      onSubmit={onSubmit}
      allowed={{ permission: "notification_simulation.write", action: "run simulations" }}
    >
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <SelectField
          label="Destination"
          required
          value={chosenDestination}
          onChange={(event) => set("destination", event.target.value)}
          error={error("notification_setting_id")}
          hint="Destinations that take real events only are listed but cannot be chosen."
        >
          {destinations.destinations.map((d) => (
            <option key={d.id} value={d.id} disabled={d.traffic_source === "platform"}>
              {d.description}
              {d.traffic_source === "platform" ? " (real events only)" : ""}
            </option>
          ))}
        </SelectField>
        <SelectField
          label="Simulate"
          required
          value={chosenType?.name ?? ""}
          onChange={(event) => set("type", event.target.value)}
          error={error("type")}
          hint={
            chosenType && (
              <>
                {chosenType.description}
                {chosenType.type === "scenario" && (
                  <>
                    {" "}
                    Events it can send: <code className="font-mono">{chosenType.events.join(", ")}</code>.
                  </>
                )}
              </>
            )
          }
        >
          {typeGroups(list).map((group) => (
            <optgroup key={group.label} label={group.label}>
              {group.types.map((t) => (
                <option key={t.name} value={t.name}>
                  {t.type === "scenario" ? t.label : t.name}
                </option>
              ))}
            </optgroup>
          ))}
        </SelectField>
        <TextField
          label="Name"
          required
          autoComplete="off"
          maxLength={SIMULATION_NAME_MAX}
          value={shownName}
          onChange={(event) => {
            set("nameEdited", true);
            set("name", event.target.value);
          }}
          error={error("name")}
          hint="To find this simulation again below."
        />
      </div>
    </FormShell>
  );
}
