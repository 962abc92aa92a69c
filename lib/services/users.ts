import { hashPassword, PASSWORD_MIN_LENGTH } from "../auth/passwords.ts";
import { isRole, type Role } from "../auth/permissions.ts";
import { db } from "../db.ts";
import { newId } from "../ids.ts";

export interface CreateUserInput {
  email: string;
  password: string;
  role: string;
  name?: string | null;
}

export async function createUser(input: CreateUserInput) {
  const email = input.email.trim().toLowerCase();
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw new Error(`"${input.email}" is not an email address`);
  if (input.password.length < PASSWORD_MIN_LENGTH) {
    throw new Error(`the password must be at least ${PASSWORD_MIN_LENGTH} characters`);
  }
  if (!isRole(input.role)) throw new Error(`role must be one of owner, admin, developer, viewer (not "${input.role}")`);
  if (await db().user.findUnique({ where: { email } })) throw new Error(`a login for ${email} already exists`);
  return db().user.create({
    data: {
      id: newId("usr"),
      email,
      name: input.name ?? null,
      role: input.role as Role,
      passwordHash: await hashPassword(input.password),
    },
  });
}
