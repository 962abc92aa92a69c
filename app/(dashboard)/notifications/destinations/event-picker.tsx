"use client";

import { type ReactNode, useEffect, useRef } from "react";
import { ErrorState, LoadingBlock } from "@/components/states";
import { type EventType, useEventTypes } from "@/lib/client/notifications";
import { groupEventTypes } from "../destination-text";

const CHECKBOX = "h-4 w-4 shrink-0 rounded border-slate-300 accent-brand-600";

/**
 * A checkbox that stands for several: ticked when all are, "mixed" (indeterminate) when some are.
 * Its accessible name is `label`; `children` is what the eye sees.
 */
function GroupCheckbox({
  checked,
  some,
  onChange,
  label,
  className,
  children,
}: {
  checked: boolean;
  some: boolean;
  onChange: (checked: boolean) => void;
  label: string;
  className: string;
  children: ReactNode;
}) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = some && !checked;
  }, [some, checked]);
  return (
    <label className={`inline-flex cursor-pointer items-center gap-2 ${className}`}>
      <input
        ref={ref}
        type="checkbox"
        className={CHECKBOX}
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
        aria-label={label}
      />
      <span aria-hidden="true">{children}</span>
    </label>
  );
}

/**
 * The events a destination subscribes to, from GET /event-types, by group: a group's checkbox
 * ticks or unticks all of its events (and shows "mixed" when only some are ticked), each event has
 * its own. Names chosen earlier that the catalogue no longer lists stay chosen.
 */
export function EventPicker({
  selected,
  onChange,
  error,
  errorId,
}: {
  selected: ReadonlySet<string>;
  onChange: (next: Set<string>) => void;
  error?: string;
  errorId: string;
}) {
  const eventTypes = useEventTypes();
  const types = eventTypes.data ?? [];
  const groups = groupEventTypes(types);
  const count = types.filter((type) => selected.has(type.name)).length;

  function setMany(events: readonly EventType[], checked: boolean) {
    const next = new Set(selected);
    for (const event of events) {
      if (checked) next.add(event.name);
      else next.delete(event.name);
    }
    onChange(next);
  }

  return (
    <fieldset
      tabIndex={-1}
      aria-describedby={error ? errorId : undefined}
      aria-invalid={error ? true : undefined}
      className="outline-none"
    >
      <legend className="text-sm font-medium text-slate-700">
        Events
        <span aria-hidden="true" className="ml-0.5 text-red-600">
          *
        </span>
      </legend>
      <p className="text-xs text-slate-500">
        Tick a group for all of its events, or choose single events. Point at an event to see when it occurs.
      </p>
      {error && (
        <p id={errorId} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      )}
      <div className={`mt-2 rounded-md border ${error ? "border-red-500" : "border-slate-200"}`}>
        {eventTypes.isLoading ? (
          <div className="px-3 py-2">
            <LoadingBlock label="Loading event types…" lines={4} />
          </div>
        ) : eventTypes.error ? (
          <div className="p-3">
            <ErrorState
              error={eventTypes.error}
              title="Could not load the event types"
              onRetry={() => eventTypes.refetch()}
            />
          </div>
        ) : (
          <>
            <div className="flex items-center justify-between border-b border-slate-200 bg-slate-50 px-3 py-2">
              <GroupCheckbox
                checked={types.length > 0 && count === types.length}
                some={count > 0}
                onChange={(checked) => setMany(types, checked)}
                label="All events"
                className="text-sm font-medium text-slate-800"
              >
                All events
              </GroupCheckbox>
              <span className="text-xs text-slate-500" aria-live="polite">
                {count} of {types.length} selected
              </span>
            </div>
            <ul className="grid max-h-[28rem] grid-cols-1 gap-3 overflow-y-auto p-3 sm:grid-cols-2 lg:grid-cols-3">
              {groups.map(({ group, events }) => {
                const ticked = events.filter((event) => selected.has(event.name)).length;
                return (
                  <li key={group} className="rounded-md border border-slate-200 p-2.5">
                    <div className="flex items-center justify-between gap-2">
                      <GroupCheckbox
                        checked={ticked === events.length}
                        some={ticked > 0}
                        onChange={(checked) => setMany(events, checked)}
                        label={`All ${group} events`}
                        className="text-sm font-semibold text-slate-900"
                      >
                        {group}
                      </GroupCheckbox>
                      <span className="text-xs text-slate-500">
                        {ticked}/{events.length}
                      </span>
                    </div>
                    <ul className="mt-1.5 ml-6 space-y-1">
                      {events.map((event) => (
                        <li key={event.name}>
                          <label
                            className="inline-flex cursor-pointer items-center gap-2 text-sm text-slate-700"
                            title={event.description}
                          >
                            <input
                              type="checkbox"
                              className={CHECKBOX}
                              checked={selected.has(event.name)}
                              onChange={(e) => setMany([event], e.target.checked)}
                            />
                            <span className="font-mono text-xs">{event.name}</span>
                          </label>
                        </li>
                      ))}
                    </ul>
                  </li>
                );
              })}
            </ul>
          </>
        )}
      </div>
    </fieldset>
  );
}
