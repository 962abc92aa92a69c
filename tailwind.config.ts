import type { Config } from "tailwindcss";

// Tailwind 4 reads this through `@config` in app/globals.css.
const config: Config = {
  content: ["./app/**/*.{ts,tsx}", "./components/**/*.{ts,tsx}"],
  theme: {
    extend: {
      colors: {
        brand: {
          50: "#eef5ff",
          100: "#d9e8ff",
          500: "#3b6ef5",
          600: "#2a55db",
          700: "#2343b0",
        },
      },
    },
  },
};

export default config;
