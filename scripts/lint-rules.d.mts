// The types of scripts/lint-rules.mjs (the project's ESLint plugin), for its test in test/node.
import type { ESLint, Rule } from 'eslint';

/** The plugin eslint.config.mjs registers as `local`. */
declare const plugin: ESLint.Plugin & { rules: Record<'no-cycle' | 'disable-says-why', Rule.RuleModule> };
export default plugin;
