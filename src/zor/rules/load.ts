/**
 * Reading one rule file: TOML (smol-toml, which reports line and column), then the zod schema,
 * then compilation. Whatever goes wrong comes back as a RuleFileError naming the file, the rule
 * and the problem.
 */
import { UnreadableFile, readUtf8File } from '../../regular-file';
import type { z } from 'zod';
import { compileRuleSet } from './compile';
import { RuleFileError } from './rule-file-error';
import type { RuleSet } from './rule-set';
import { ruleSetSchema } from './schema';
import { isTomlError, parseToml } from './toml';

/** `rules[3].all[0].regex` → `rule "ask" (rules[3]), all[0].regex`, using the raw file for the rule's id. */
function describeIssue(issue: z.core.$ZodIssue, raw: unknown): string {
  const path = [...issue.path];
  let where = '';
  if (path[0] === 'rules' && typeof path[1] === 'number') {
    const index = path[1];
    const rules = (raw as { rules?: unknown }).rules;
    const rule: unknown = Array.isArray(rules) ? rules[index] : undefined;
    const id = (rule as { id?: unknown } | undefined)?.id;
    where = typeof id === 'string' ? `rule "${id}" (rules[${index}])` : `rules[${index}]`;
    path.splice(0, 2);
  }
  const key = path
    .map((part, position) =>
      typeof part === 'number' ? `[${part}]` : `${position === 0 ? '' : '.'}${String(part)}`,
    )
    .join('');
  const located = [where, key].filter((part) => part !== '').join(', ');
  let message = issue.message;
  if (issue.code === 'unrecognized_keys') {
    message = `unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
  }
  return located === '' ? message : `${located}: ${message}`;
}

/** Parses and compiles rule-file text; `file` is only used to name the source in the set and in errors. */
export function parseRuleSet(text: string, file: string): RuleSet {
  let raw: unknown;
  try {
    raw = parseToml(text);
  } catch (error) {
    if (isTomlError(error)) {
      const firstLine = error.message.split('\n')[0] ?? error.message;
      throw new RuleFileError(file, [`line ${error.line}, column ${error.column}: ${firstLine}`]);
    }
    throw error;
  }
  const parsed = ruleSetSchema.safeParse(raw);
  if (!parsed.success) {
    throw new RuleFileError(
      file,
      parsed.error.issues.map((issue) => describeIssue(issue, raw)),
    );
  }
  const compiled = compileRuleSet(parsed.data, file);
  if (!compiled.ok) throw new RuleFileError(file, compiled.problems);
  return compiled.set;
}

/** The bundled rule sets are a few KiB each: a file of more is not a rule set (and is not read into memory). */
const MAX_RULE_FILE_BYTES = 1024 * 1024;

export function loadRuleFile(file: string): RuleSet {
  let text: string;
  try {
    text = readUtf8File(file, MAX_RULE_FILE_BYTES);
  } catch (error) {
    const reason = error instanceof UnreadableFile ? error.reason : (error as Error).message;
    throw new RuleFileError(file, [`cannot read the file: ${reason}`]);
  }
  return parseRuleSet(text, file);
}
