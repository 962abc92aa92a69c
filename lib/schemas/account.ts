/** The signed-in staff member's own login (ours: `/api/account`, the dashboard's Account page). */
import { z } from "zod";
import { email } from "./common.ts";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, role } from "./team.ts";

export const account = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string().nullable(),
  role,
});
export type Account = z.infer<typeof account>;

const password = z
  .string({ error: "Enter a password." })
  .min(PASSWORD_MIN_LENGTH, `Enter a password of at least ${PASSWORD_MIN_LENGTH} characters.`)
  .max(PASSWORD_MAX_LENGTH, `Enter a password of at most ${PASSWORD_MAX_LENGTH} characters.`);

/**
 * A change of one's own login. A new email or password needs the current password (a session left
 * open on a shared computer must not be enough to take the login over); the name does not.
 */
export const updateAccountBody = z
  .strictObject({
    name: z
      .string({ error: "Enter a name." })
      .trim()
      .max(200, "Enter a name of at most 200 characters.")
      .nullable()
      .optional(),
    // Logins are kept in lower case (lib/services/users.ts), as sign-in looks them up.
    email: email.transform((value) => value.toLowerCase()).optional(),
    password: password.optional(),
    current_password: z
      .string({ error: "Enter your current password." })
      .max(PASSWORD_MAX_LENGTH, "Enter your current password.")
      .optional(),
  })
  .superRefine((body, ctx) => {
    if ((body.email !== undefined || body.password !== undefined) && !body.current_password) {
      ctx.addIssue({
        code: "custom",
        path: ["current_password"],
        message: "Enter your current password to change your email address or password.",
      });
    }
  });
export type UpdateAccountInput = z.infer<typeof updateAccountBody>;
