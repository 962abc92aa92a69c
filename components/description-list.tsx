import type { ReactNode } from "react";

export interface DescriptionItem {
  term: string;
  value: ReactNode;
  /** Spans both columns (long values such as JSON). */
  wide?: boolean;
}

/** The fields of one entity as term/value pairs. */
export function DescriptionList({ items }: { items: DescriptionItem[] }) {
  return (
    <dl className="grid grid-cols-1 gap-x-8 gap-y-4 sm:grid-cols-2">
      {items.map((item) => (
        <div key={item.term} className={item.wide ? "sm:col-span-2" : ""}>
          <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">{item.term}</dt>
          <dd className="mt-1 text-sm break-words text-slate-900">{item.value}</dd>
        </div>
      ))}
    </dl>
  );
}

const dash = <span className="text-slate-500">—</span>;

/** Read-only text in monospace, scrolling past its height; `wrap` for text that is not indented JSON. */
function Pre({ text, tall, wrap = false }: { text: string; tall: boolean; wrap?: boolean }) {
  return (
    <pre
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a keyboard scrolls text taller or wider than its box
      tabIndex={0}
      className={`${tall ? "max-h-[32rem]" : "max-h-64"} ${wrap ? "break-all whitespace-pre-wrap" : ""} overflow-auto rounded-md bg-slate-50 px-3 py-2 font-mono text-xs text-slate-800`}
    >
      {text}
    </pre>
  );
}

/** `custom_data` and other JSON, read-only, pretty-printed; `tall` for whole payloads. */
export function JsonBlock({ value, tall = false }: { value: unknown; tall?: boolean }) {
  if (value === null || value === undefined) return dash;
  return <Pre text={JSON.stringify(value, null, 2)} tall={tall} />;
}

/**
 * A body as sent or received over HTTP: pretty-printed when it is JSON, as it is otherwise, and
 * "empty" for an empty one.
 */
export function BodyBlock({ body, tall = false }: { body: string | null | undefined; tall?: boolean }) {
  if (body === null || body === undefined) return dash;
  if (body === "") return <span className="text-slate-500">Empty</span>;
  const pretty = prettyJson(body);
  // Not JSON: shown as it is.
  return pretty === null ? <Pre text={body} tall={tall} wrap /> : <Pre text={pretty} tall={tall} />;
}

function prettyJson(text: string): string | null {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return null;
  }
}
