"use client";

import { Checkbox } from "@/components/checkbox";
import { PERMISSION_ENTITIES, PERMISSIONS } from "@/lib/auth/permissions";
import { humanize } from "@/lib/dashboard/display";

export interface PermissionGroup {
  entity: string;
  read?: string;
  write?: string;
}

/** PERMISSIONS by entity, in the order of PERMISSION_ENTITIES (entities not listed there last). */
export const PERMISSION_GROUPS: PermissionGroup[] = (() => {
  const groups = new Map<string, PermissionGroup>();
  for (const permission of PERMISSIONS) {
    const [entity = permission, action] = permission.split(".");
    const group = groups.get(entity) ?? { entity };
    if (action === "read") group.read = permission;
    if (action === "write") group.write = permission;
    groups.set(entity, group);
  }
  const order = (entity: string) => {
    const index = (PERMISSION_ENTITIES as readonly string[]).indexOf(entity);
    return index === -1 ? PERMISSION_ENTITIES.length : index;
  };
  return [...groups.values()].sort((a, b) => order(a.entity) - order(b.entity) || a.entity.localeCompare(b.entity));
})();

/**
 * Ticking write ticks read too (write implies read); unticking read unticks write. The result
 * lists both, so the key shows exactly what it can do.
 */
export function togglePermission(selected: ReadonlySet<string>, permission: string, checked: boolean): Set<string> {
  const next = new Set(selected);
  const [entity, action] = permission.split(".");
  const read = `${entity}.read`;
  const write = `${entity}.write`;
  if (checked) {
    next.add(permission);
    if (action === "write" && PERMISSIONS.includes(read)) next.add(read);
  } else {
    next.delete(permission);
    if (action === "read") next.delete(write);
  }
  return next;
}

/**
 * Permissions the signed-in staff member does not hold are shown but cannot be ticked: a key can
 * only be given what its creator can do (the API refuses the rest with 403 forbidden).
 */
export function PermissionPicker({
  grantable,
  selected,
  onChange,
  error,
  errorId,
}: {
  grantable: readonly string[];
  selected: ReadonlySet<string>;
  onChange: (next: Set<string>) => void;
  error?: string;
  errorId: string;
}) {
  const allowed = new Set(grantable.filter((p) => PERMISSIONS.includes(p)));
  const count = selected.size;
  const everything = allowed.size > 0 && [...allowed].every((p) => selected.has(p));
  const limited = allowed.size < PERMISSIONS.length;
  const unavailable = "Your role does not have this permission, so it cannot give it to a key";

  return (
    <fieldset aria-describedby={error ? errorId : undefined} aria-invalid={error ? true : undefined}>
      <legend className="text-sm font-medium text-slate-700">
        Permissions
        <span aria-hidden="true" className="ml-0.5 text-red-600">
          *
        </span>
      </legend>
      <p className="text-xs text-slate-500">Write lets the key change an entity and includes read.</p>
      {limited && (
        <p className="text-xs text-slate-500">
          A key can only be given permissions that your role has; the others are greyed out.
        </p>
      )}
      {error && (
        <p id={errorId} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      )}
      <div className="mt-2 rounded-md border border-slate-200">
        <div className="flex items-center justify-between border-b border-slate-200 bg-slate-50 px-3 py-2">
          <Checkbox
            checked={everything}
            mixed={count > 0}
            disabled={allowed.size === 0}
            onChange={(checked) => onChange(checked ? new Set(allowed) : new Set())}
            className="text-sm font-medium text-slate-800"
          >
            Select all
          </Checkbox>
          <span className="text-xs text-slate-500" aria-live="polite">
            {count} of {allowed.size} selected
          </span>
        </div>
        <ul className="grid grid-cols-1 gap-x-6 px-1.5 py-1.5 md:grid-cols-2">
          {PERMISSION_GROUPS.map((group) => (
            <li
              key={group.entity}
              className="flex items-center justify-between gap-3 rounded px-1.5 py-1 hover:bg-slate-50"
            >
              <span className="text-sm text-slate-800">{humanize(group.entity)}</span>
              <span className="flex w-36 shrink-0 justify-start gap-4">
                {group.read ? (
                  <Checkbox
                    label={group.read}
                    title={allowed.has(group.read) ? group.read : `${group.read}: ${unavailable}`}
                    disabled={!allowed.has(group.read)}
                    checked={selected.has(group.read)}
                    onChange={(checked) => onChange(togglePermission(selected, group.read!, checked))}
                    className="text-sm text-slate-700"
                  >
                    Read
                  </Checkbox>
                ) : (
                  <span className="w-[3.4rem]" />
                )}
                {group.write && (
                  <Checkbox
                    label={group.write}
                    title={allowed.has(group.write) ? group.write : `${group.write}: ${unavailable}`}
                    disabled={!allowed.has(group.write)}
                    checked={selected.has(group.write)}
                    onChange={(checked) => onChange(togglePermission(selected, group.write!, checked))}
                    className="text-sm text-slate-700"
                  >
                    Write
                  </Checkbox>
                )}
              </span>
            </li>
          ))}
        </ul>
      </div>
    </fieldset>
  );
}
