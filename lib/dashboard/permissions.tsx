"use client";
/**
 * What the signed-in staff member's role may do, for the dashboard to hide or disable what it
 * cannot (the API refuses it anyway). Fed once by the dashboard layout (PermissionsProvider) from
 * the role read on the server; without a provider everything is offered and the API decides.
 */
import {
  cloneElement,
  createContext,
  isValidElement,
  type ReactElement,
  type ReactNode,
  useContext,
  useId,
  useMemo,
} from "react";
import { Button, ButtonLink, type ButtonSize, type ButtonVariant } from "@/components/button";

interface PermissionsValue {
  role: string | null;
  permissions: ReadonlySet<string> | null;
}

const PermissionsContext = createContext<PermissionsValue>({ role: null, permissions: null });

export function PermissionsProvider({
  role,
  permissions,
  children,
}: {
  role: string | null;
  permissions: readonly string[];
  children: ReactNode;
}) {
  const value = useMemo(() => ({ role, permissions: new Set(permissions) }), [role, permissions]);
  return <PermissionsContext.Provider value={value}>{children}</PermissionsContext.Provider>;
}

export interface Permissions {
  role: string | null;
  /** Whether the role holds `permission` (`x.write` holds `x.read` too: the set is expanded). */
  can: (permission: string) => boolean;
  /** "Your role (viewer) cannot create customers." */
  reason: (action: string) => string;
}

export function usePermissions(): Permissions {
  const { role, permissions } = useContext(PermissionsContext);
  return useMemo(
    () => ({
      role,
      can: (permission: string) => permissions === null || permissions.has(permission),
      reason: (action: string) => `Your role (${role ?? "unknown"}) cannot ${action}.`,
    }),
    [role, permissions],
  );
}

type AnyProps = Record<string, unknown> & { children?: ReactNode };

/**
 * A write control (a button or a link that opens a form) offered only when the role holds
 * `permission`. Otherwise it is shown disabled with the reason as its tooltip and its
 * description (aria-describedby), e.g. "Your role (viewer) cannot create customers.". A link
 * becomes a disabled button of the same look. `hide` leaves it out instead.
 */
export function Allowed({
  permission,
  action,
  hide = false,
  children,
}: {
  permission: string;
  /** What the control does, as a verb phrase: "create customers". */
  action: string;
  hide?: boolean;
  children: ReactElement;
}) {
  const { can, reason } = usePermissions();
  const id = useId();
  if (can(permission) || !isValidElement(children)) return children;
  if (hide) return null;
  const text = reason(action);
  const props = children.props as AnyProps;
  const refused = { disabled: true, title: text, "aria-describedby": id, "data-refused": "" };
  let control: ReactElement;
  if (children.type === ButtonLink || (typeof props.href === "string" && typeof props.variant === "string")) {
    control = (
      <Button
        variant={props.variant as ButtonVariant | undefined}
        size={props.size as ButtonSize | undefined}
        className={props.className as string | undefined}
        {...refused}
      >
        {props.children}
      </Button>
    );
  } else if ("href" in props) {
    // A plain link: a disabled button with the link's look (a link cannot be disabled).
    control = (
      <button
        type="button"
        {...refused}
        className={`${(props.className as string | undefined) ?? ""} cursor-not-allowed opacity-60`}
      >
        {props.children}
      </button>
    );
  } else {
    control = cloneElement(children as ReactElement<AnyProps>, { ...refused, onClick: undefined });
  }
  return (
    <>
      {control}
      <span id={id} className="sr-only">
        {text}
      </span>
    </>
  );
}
