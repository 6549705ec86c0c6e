/**
 * The gate algebra. A gate matches when every part that is present holds: each `contains` needle is
 * in the lowercased region, each `regex` matches the region text, each `line_regex` matches some
 * line, each `all` sub-gate matches, at least one `any` sub-gate matches (when there are any), and
 * no `not` sub-gate matches. Sub-gates read the same region as their rule.
 */
import type { RegionText } from './region-text';
import type { CompiledGate } from './rule-set';

export function containsNeedle(region: RegionText, loweredNeedle: string): boolean {
  return region.lowered.includes(loweredNeedle);
}

export function regexMatches(region: RegionText, pattern: RegExp): boolean {
  return pattern.test(region.text);
}

export function lineRegexMatches(region: RegionText, pattern: RegExp): boolean {
  return region.lines.some((line) => pattern.test(line));
}

export function gateMatches(gate: CompiledGate, region: RegionText): boolean {
  return (
    gate.contains.every((needle) => containsNeedle(region, needle)) &&
    gate.regex.every((pattern) => regexMatches(region, pattern)) &&
    gate.lineRegex.every((pattern) => lineRegexMatches(region, pattern)) &&
    gate.all.every((sub) => gateMatches(sub, region)) &&
    (gate.any.length === 0 || gate.any.some((sub) => gateMatches(sub, region))) &&
    !gate.not.some((sub) => gateMatches(sub, region))
  );
}
