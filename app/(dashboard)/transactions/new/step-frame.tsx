"use client";

import { type ReactNode, useEffect, useRef } from "react";
import { Button } from "@/components/button";

/**
 * One step of the invoice: its heading (which takes the focus when the step opens, so keyboard and
 * screen-reader users land on it), the problems that stop it (announced), its content, and the way
 * back and on.
 */
export function StepFrame({
  number,
  title,
  description,
  problems,
  focusOnMount,
  children,
  onBack,
  next,
}: {
  number: number;
  title: string;
  description?: ReactNode;
  problems: string[];
  focusOnMount: boolean;
  children: ReactNode;
  onBack?: () => void;
  /** The forward button: "Continue", or the final action. */
  next: ReactNode;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  const alert = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (focusOnMount) heading.current?.focus();
  }, [focusOnMount]);
  // New problems on a step already open take the focus; a step opened with problems focuses its
  // heading (above), and the alert is announced by its role.
  const problemsKey = problems.join("\n");
  const shownKey = useRef(problemsKey);
  useEffect(() => {
    if (problemsKey && problemsKey !== shownKey.current) alert.current?.focus();
    shownKey.current = problemsKey;
  }, [problemsKey]);
  const headingId = `step-${number}-heading`;
  return (
    <section aria-labelledby={headingId} className="rounded-lg border border-slate-200 bg-white shadow-sm">
      <div className="border-b border-slate-200 px-5 py-4">
        <h2 id={headingId} ref={heading} tabIndex={-1} className="text-base font-semibold text-slate-900">
          <span className="text-slate-500">Step {number} of 5 · </span>
          {title}
        </h2>
        {description && <p className="mt-0.5 text-sm text-slate-600">{description}</p>}
      </div>
      <div className="space-y-5 px-5 py-4">
        {problems.length > 0 && (
          <div
            ref={alert}
            role="alert"
            tabIndex={-1}
            className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800"
          >
            {problems.length === 1 ? (
              <p>{problems[0]}</p>
            ) : (
              <ul className="list-disc pl-5">
                {problems.map((problem) => (
                  <li key={problem}>{problem}</li>
                ))}
              </ul>
            )}
          </div>
        )}
        {children}
      </div>
      <div className="flex items-center justify-between gap-2 border-t border-slate-200 px-5 py-3">
        {onBack ? (
          <Button variant="secondary" onClick={onBack}>
            Back
          </Button>
        ) : (
          <span />
        )}
        {next}
      </div>
    </section>
  );
}

/** A choice in a list of entities (a customer, an address, a discount): a radio with its text. */
export function ChoiceList<T>({
  legend,
  name,
  items,
  selectedId,
  idOf,
  render,
  onSelect,
  extra,
}: {
  legend: string;
  name: string;
  items: T[];
  selectedId: string | null;
  idOf: (item: T) => string;
  render: (item: T) => ReactNode;
  onSelect: (item: T) => void;
  extra?: ReactNode;
}) {
  return (
    <fieldset>
      <legend className="text-sm font-medium text-slate-700">{legend}</legend>
      <div className="mt-2 space-y-2">
        {extra}
        {items.map((item) => {
          const id = idOf(item);
          const selected = id === selectedId;
          return (
            <label
              key={id}
              className={`flex cursor-pointer items-start gap-3 rounded-md border px-3 py-2 text-sm ${
                selected ? "border-brand-500 bg-brand-50" : "border-slate-200 hover:bg-slate-50"
              }`}
            >
              <input
                type="radio"
                name={name}
                checked={selected}
                onChange={() => onSelect(item)}
                className="mt-0.5 accent-brand-600"
              />
              <span className="min-w-0">{render(item)}</span>
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
