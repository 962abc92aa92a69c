"use client";

import Link from "next/link";
import { useEffect, useId, useRef, useState } from "react";
import { Button } from "@/components/button";
import type { Column } from "@/components/data-table";
import { BodyBlock } from "@/components/description-list";
import { PagedTable } from "@/components/list-page";
import { PageHeader, Section } from "@/components/page-header";
import { useCursorPagination } from "@/components/pagination";
import { EmptyState, ErrorState, Skeleton } from "@/components/states";
import { StatusBadge } from "@/components/status-badge";
import { InlineMessage, useToast } from "@/components/toast";
import { pluralize } from "@/lib/dashboard/display";
import {
  type Simulation,
  type SimulationEvent,
  type SimulationType,
  useSimulationRun,
  useSimulations,
  useSimulationTypes,
  useStartSimulationRun,
} from "@/lib/dashboard/notifications";
import { Allowed } from "@/lib/dashboard/permissions";
import { destinationPath, useDestinations } from "../destination-text";
import { DateTimeCell, ResponseCode } from "../notification-columns";
import { SimulationForm } from "./simulation-form";

const SIMULATIONS_PER_PAGE = 10;

/** A run on screen: the simulation it belongs to and its ID. */
interface ShownRun {
  simulation: Simulation;
  runId: string;
}

/** How a simulation type is named in lists: the event's name, or the scenario's label. */
export function simulationTypeName(type: SimulationType | undefined, fallback: string): string {
  if (!type) return fallback;
  return type.type === "scenario" ? type.label : type.name;
}

export function SimulatorView({ initialDestination = "" }: { initialDestination?: string }) {
  const [shown, setShown] = useState<ShownRun | null>(null);
  const types = useSimulationTypes();
  const typesByName = new Map((types.data ?? []).map((type) => [type.name, type]));
  const destinations = useDestinations();
  const start = useStartSimulationRun();
  const toast = useToast();
  const pagination = useCursorPagination();
  const simulations = useSimulations({ status: "active", after: pagination.after, per_page: SIMULATIONS_PER_PAGE });

  async function runAgain(simulation: Simulation) {
    try {
      const run = await start.mutateAsync(simulation.id);
      setShown({ simulation, runId: run.id });
    } catch (error) {
      toast.show(error instanceof Error ? error.message : "Could not start the run.", "error");
    }
  }

  const columns: Column<Simulation>[] = [
    { key: "name", header: "Name", cell: (s) => <span className="font-medium text-slate-900">{s.name}</span> },
    {
      key: "type",
      header: "Simulates",
      cell: (s) => <span className="font-mono text-xs">{simulationTypeName(typesByName.get(s.type), s.type)}</span>,
    },
    {
      key: "destination",
      header: "Destination",
      cell: (s) => (
        <Link href={destinationPath(s.notification_setting_id)} className="text-brand-700 hover:underline">
          {destinations.byId.get(s.notification_setting_id)?.description ?? s.notification_setting_id}
        </Link>
      ),
    },
    {
      key: "last_run",
      header: "Last run",
      className: "whitespace-nowrap",
      cell: (s) => <DateTimeCell value={s.last_run_at} />,
    },
    {
      key: "actions",
      header: "",
      srHeader: "Actions",
      className: "text-right",
      cell: (s) => (
        <Allowed permission="notification_simulation.write" action="run simulations">
          <Button
            variant="ghost"
            size="sm"
            onClick={() => runAgain(s)}
            disabled={start.isPending}
            aria-label={`Run again: ${s.name}`}
          >
            Run again
          </Button>
        </Allowed>
      ),
    },
  ];

  return (
    <div>
      <PageHeader
        title="Simulator"
        description="Send example events to a destination on demand, to build and test your endpoint: a single event, or a scenario such as a subscription's creation, in order. Nothing in your account changes."
      />

      <div className="space-y-6">
        <Section title="New simulation">
          <SimulationForm
            initialDestination={initialDestination}
            types={types}
            destinations={destinations}
            onStarted={(simulation, runId) => setShown({ simulation, runId })}
          />
        </Section>

        {shown && (
          <RunSection
            key={shown.runId}
            simulation={shown.simulation}
            runId={shown.runId}
            typeName={simulationTypeName(typesByName.get(shown.simulation.type), shown.simulation.type)}
          />
        )}

        <Section title="Simulations" description="Simulations made before, to run again.">
          <PagedTable
            caption="Simulations"
            columns={columns}
            rowKey={(s) => s.id}
            list={simulations}
            pagination={pagination}
            skeletonRows={2}
            empty={<EmptyState title="No simulations yet" description="Run one above: it is kept here to run again." />}
          />
        </Section>
      </div>
    </div>
  );
}

/** A run's events as they are sent, each with the request body and the endpoint's answer. */
function RunSection({ simulation, runId, typeName }: { simulation: Simulation; runId: string; typeName: string }) {
  const run = useSimulationRun(simulation.id, runId);
  const heading = useRef<HTMLHeadingElement>(null);
  const headingId = useId();
  useEffect(() => heading.current?.focus(), []);
  const events = run.data?.events ?? [];
  const pending = !run.data || run.data.status === "pending";
  const sent = events.filter((event) => event.status !== "pending").length;
  const succeeded = events.filter((event) => event.status === "success").length;

  return (
    <section aria-labelledby={headingId} className="rounded-lg border border-slate-200 bg-white shadow-sm">
      <div className="flex flex-wrap items-start justify-between gap-3 border-b border-slate-200 px-5 py-4">
        <div>
          <h2
            id={headingId}
            ref={heading}
            tabIndex={-1}
            className="text-base font-semibold text-slate-900 outline-none"
          >
            Run of “{simulation.name}”
          </h2>
          <p className="mt-0.5 text-sm text-slate-600">
            <span className="font-mono text-xs">{typeName}</span> · <code className="font-mono text-xs">{runId}</code>
          </p>
        </div>
        {run.data && <StatusBadge status={run.data.status} />}
      </div>
      <div className="space-y-4 px-5 py-4">
        <p role="status" className="text-sm text-slate-700">
          {run.error && !run.data
            ? ""
            : pending
              ? ["Sending events…", events.length > 0 && `${sent} of ${events.length} sent.`, "This updates by itself."]
                  .filter(Boolean)
                  .join(" ")
              : `Run ${run.data?.status}: ${succeeded} of ${pluralize(events.length, "event")} answered with a 2xx status.`}
        </p>
        {run.error && !run.data ? (
          <ErrorState error={run.error} title="Could not load the run" onRetry={() => run.refetch()} />
        ) : events.length === 0 && pending ? (
          // The status above says what is happening; these only hold the place.
          <div className="space-y-3">
            <Skeleton className="h-4 w-1/3" />
            <Skeleton className="h-24 w-full" />
          </div>
        ) : events.length === 0 ? (
          <InlineMessage tone="warning">This run sent no events.</InlineMessage>
        ) : (
          <ol className="space-y-4">
            {events.map((event, index) => (
              <RunEvent key={event.id} event={event} index={index + 1} />
            ))}
          </ol>
        )}
      </div>
    </section>
  );
}

function RunEvent({ event, index }: { event: SimulationEvent; index: number }) {
  const titleId = useId();
  return (
    <li aria-labelledby={titleId} className="rounded-md border border-slate-200">
      <div className="flex flex-wrap items-center gap-3 border-b border-slate-200 bg-slate-50 px-4 py-2">
        <h3 id={titleId} className="font-mono text-sm font-medium text-slate-900">
          <span className="sr-only">Event {index}: </span>
          {event.event_type}
        </h3>
        <StatusBadge status={event.status} />
        {event.status !== "pending" && (
          <span className="inline-flex items-center gap-1.5 text-sm text-slate-600">
            Response <ResponseCode code={event.response?.status_code} />
          </span>
        )}
      </div>
      <div className="grid grid-cols-1 gap-4 p-4 md:grid-cols-2">
        <div className="min-w-0">
          <h4 className="mb-1 text-xs font-medium tracking-wide text-slate-500 uppercase">Request body</h4>
          <BodyBlock body={event.request?.body} />
        </div>
        <div className="min-w-0">
          <h4 className="mb-1 text-xs font-medium tracking-wide text-slate-500 uppercase">Response body</h4>
          {event.status === "pending" ? (
            <span className="text-sm text-slate-500">Waiting…</span>
          ) : (
            <BodyBlock body={event.response?.body} />
          )}
        </div>
      </div>
    </li>
  );
}
