"use client";

import { Checkbox } from "@/components/checkbox";
import { ErrorState, LoadingBlock } from "@/components/states";
import { type EventType, useEventTypes } from "@/lib/dashboard/notifications";
import { groupEventTypes } from "../destination-text";

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
              <Checkbox
                checked={types.length > 0 && count === types.length}
                mixed={count > 0}
                onChange={(checked) => setMany(types, checked)}
                label="All events"
                className="text-sm font-medium text-slate-800"
              >
                All events
              </Checkbox>
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
                      <Checkbox
                        checked={ticked === events.length}
                        mixed={ticked > 0}
                        onChange={(checked) => setMany(events, checked)}
                        label={`All ${group} events`}
                        className="text-sm font-semibold text-slate-900"
                      >
                        {group}
                      </Checkbox>
                      <span className="text-xs text-slate-500">
                        {ticked}/{events.length}
                      </span>
                    </div>
                    <ul className="mt-1.5 ml-6 space-y-1">
                      {events.map((event) => (
                        <li key={event.name}>
                          <Checkbox
                            checked={selected.has(event.name)}
                            onChange={(checked) => setMany([event], checked)}
                            title={event.description}
                            className="text-sm text-slate-700"
                          >
                            <span className="font-mono text-xs">{event.name}</span>
                          </Checkbox>
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
