// Loaded before every test file (bunfig.toml). Tests fail on an unexpected console.error.
import { afterEach, beforeEach } from "bun:test";

let errors: unknown[][] = [];
const original = console.error;
beforeEach(() => {
  errors = [];
  console.error = (...args: unknown[]) => {
    errors.push(args);
    original(...args);
  };
});
afterEach(() => {
  console.error = original;
  if (errors.length) {
    const first = errors[0]!.map(String).join(" ");
    errors = [];
    throw new Error(`unexpected console.error: ${first}`);
  }
});
