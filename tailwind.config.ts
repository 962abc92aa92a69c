import type { Config } from "tailwindcss";

// Tailwind 4 reads this through `@config` in app/globals.css.
const config: Config = {
  content: ["./app/**/*.{ts,tsx}", "./components/**/*.{ts,tsx}"],
  // The brand colours are theme variables in app/globals.css (@theme), which dark mode redefines.
};

export default config;
