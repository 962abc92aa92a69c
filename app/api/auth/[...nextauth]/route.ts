import NextAuth from "next-auth";
import { authOptions } from "@/lib/auth/next-auth";
import { guardNextAuth } from "@/lib/http/next-auth-route";

const handler = guardNextAuth(NextAuth(authOptions));

export { handler as GET, handler as POST };
