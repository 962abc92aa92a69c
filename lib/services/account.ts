/**
 * The signed-in staff member's own login (ours: GET and PATCH /api/account, the dashboard's
 * Account page): their name, email and password. Only a dashboard session has an account; an API
 * key is refused. A new email or password is accepted only with the current password; a new
 * password is hashed as at sign-up (lib/auth/passwords.ts).
 */
import { hashPassword, verifyPassword } from "../auth/passwords.ts";
import { query, queryExactlyOne, sqlTransaction, uniqueViolation } from "../db/sql.ts";
import { ApiError, invalidField } from "../errors.ts";
import type { AuthContext } from "../http/auth.ts";
import type { Account, UpdateAccountInput } from "../schemas/account.ts";

const COLUMNS = "id, email, name, role";

/** The session's login was removed (by the owner, on Team) while the session lasted. */
function loginGone(): ApiError {
  return new ApiError("invalid_token", "The dashboard session's login no longer exists. Sign in again.");
}

function sessionUserId(auth: AuthContext): string {
  if (auth.type !== "session") {
    throw new ApiError(
      "forbidden",
      "The account is the signed-in staff member's login: an API key has none. Sign in to the dashboard to change your name, email or password.",
    );
  }
  return auth.userId;
}

export async function getAccount(auth: AuthContext): Promise<Account> {
  const [row] = await query<Account>(`SELECT ${COLUMNS} FROM users WHERE id = $1`, [sessionUserId(auth)]);
  if (!row) throw loginGone();
  return row;
}

export async function updateAccount(auth: AuthContext, input: UpdateAccountInput): Promise<Account> {
  const userId = sessionUserId(auth);
  try {
    return await sqlTransaction(async (client) => {
      const [user] = await query<Account & { password_hash: string }>(
        `SELECT ${COLUMNS}, password_hash FROM users WHERE id = $1 FOR UPDATE`,
        [userId],
        client,
      );
      if (!user) throw loginGone();
      const changesLogin = input.email !== undefined || input.password !== undefined;
      if (changesLogin && !(await verifyPassword(input.current_password ?? "", user.password_hash))) {
        throw invalidField("current_password", "The current password is not correct.");
      }
      if (input.email !== undefined && input.email !== user.email) {
        const [taken] = await query("SELECT 1 FROM users WHERE email = $1 AND id <> $2", [input.email, userId], client);
        if (taken) throw invalidField("email", "Another login already uses this email address.");
      }
      const updated = await queryExactlyOne<Account>(
        `UPDATE users SET name = CASE WHEN $2 THEN $3 ELSE name END, email = coalesce($4, email),
                password_hash = coalesce($5, password_hash), updated_at = now()
          WHERE id = $1 RETURNING ${COLUMNS}`,
        [
          userId,
          input.name !== undefined,
          input.name === undefined ? null : input.name || null,
          input.email ?? null,
          input.password === undefined ? null : await hashPassword(input.password),
        ],
        client,
      );
      return updated;
    });
  } catch (error) {
    // Taken meanwhile by an invitation accepted at the same moment.
    if (uniqueViolation(error) !== null) throw invalidField("email", "Another login already uses this email address.");
    throw error;
  }
}
