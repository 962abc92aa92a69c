/** Staff logins of the dashboard: created by the operator (CLI, first start), read by sign-in and auth. */
import { hashPassword, PASSWORD_MIN_LENGTH } from "../auth/passwords.ts";
import { isRole } from "../auth/permissions.ts";
import { query, queryExactlyOne, uniqueViolation } from "../db/sql.ts";
import { newId } from "../ids.ts";

export interface CreateUserInput {
  email: string;
  password: string;
  role: string;
  name?: string | null;
}

export interface User {
  id: string;
  email: string;
  name: string | null;
  role: string;
}

const USER_COLUMNS = "id, email, name, role";

export async function createUser(input: CreateUserInput): Promise<User> {
  const email = input.email.trim().toLowerCase();
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw new Error(`"${input.email}" is not an email address`);
  if (input.password.length < PASSWORD_MIN_LENGTH) {
    throw new Error(`the password must be at least ${PASSWORD_MIN_LENGTH} characters`);
  }
  if (!isRole(input.role)) throw new Error(`role must be one of owner, admin, developer, viewer (not "${input.role}")`);
  const exists = () => new Error(`a login for ${email} already exists`);
  if ((await query("SELECT 1 FROM users WHERE email = $1", [email])).length > 0) throw exists();
  try {
    const user = await queryExactlyOne<User>(
      `INSERT INTO users (id, email, name, role, password_hash) VALUES ($1, $2, $3, $4, $5) RETURNING ${USER_COLUMNS}`,
      [newId("usr"), email, input.name ?? null, input.role, await hashPassword(input.password)],
    );
    return user;
  } catch (error) {
    // Created meanwhile by another process. The CLI's and the first start's words (a plain Error):
    // no API route creates users here (the team's invitations have their own, lib/services/team).
    if (uniqueViolation(error) !== null) throw exists();
    throw error;
  }
}

/** The login of `email` (already lower case) with its password hash, or null. */
export async function findUserByEmail(email: string): Promise<(User & { passwordHash: string }) | null> {
  const [user] = await query<User & { passwordHash: string }>(
    `SELECT ${USER_COLUMNS}, password_hash AS "passwordHash" FROM users WHERE email = $1`,
    [email],
  );
  return user ?? null;
}

/** The role of the login `id`, or null when it no longer exists. */
export async function userRole(id: string): Promise<string | null> {
  const [user] = await query<{ role: string }>("SELECT role FROM users WHERE id = $1", [id]);
  return user?.role ?? null;
}

export async function recordSignIn(id: string): Promise<void> {
  await query("UPDATE users SET last_login_at = now(), updated_at = now() WHERE id = $1", [id]);
}

export async function anyUserExists(): Promise<boolean> {
  return (await query("SELECT 1 FROM users LIMIT 1")).length > 0;
}
