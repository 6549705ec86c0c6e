/**
 * The prefix key, as tmux's: every key goes to the focused pane unchanged except the prefix
 * (default C-a); the key after the prefix is looked up in the key table, and an unbound one is
 * swallowed. The prefix pressed twice sends the prefix to the pane.
 */
import type { AttachAction, ClientAction } from '../../../protocol/attach';
import { DEFAULT_PREFIX, keyTable, type Binding, type BoundKey } from './bindings';
import { formatKey, keyBytes, parseKeyName, sameKey, type KeyName } from './keys';
import type { BytesToken, KeyToken } from './tokens';

export type Outcome =
  /** Bytes for the focused pane: the token's own, unchanged. */
  | { send: string }
  | { action: AttachAction }
  | { client: ClientAction }
  /** The prefix was pressed: the next key says what to do. */
  | { pending: true }
  /** A key after the prefix that is not bound: swallowed. */
  | { cancelled: true };

/** The `keys` part of the attach view. */
export interface KeysConfig {
  prefix: string;
  bindings: Readonly<Record<string, Binding>>;
}

export class PrefixKeys {
  readonly prefix: KeyName;
  /** Config entries that could not be used (a bad prefix, an unknown key or action). */
  readonly problems: string[];
  private readonly keys: Map<string, BoundKey>;
  private waiting = false;
  /** Keys whose press was taken here: their kitty release events are not the pane's either. */
  private readonly taken = new Set<string>();

  constructor(config: Partial<KeysConfig> = {}) {
    const problems: string[] = [];
    let prefix = parseKeyName(config.prefix ?? DEFAULT_PREFIX);
    if (!prefix) {
      problems.push(`prefix: "${config.prefix}" is not a key name; using ${DEFAULT_PREFIX}`);
      prefix = parseKeyName(DEFAULT_PREFIX)!;
    }
    this.prefix = prefix;
    const table = keyTable(config.bindings ?? {}, formatKey(prefix));
    this.keys = table.keys;
    this.problems = [...problems, ...table.problems];
  }

  /** Whether the prefix was pressed and the next key is awaited. */
  get pending(): boolean {
    return this.waiting;
  }

  /** Forget a pressed prefix (e.g. when the client changes mode). */
  cancel(): void {
    this.waiting = false;
  }

  handle(token: KeyToken | BytesToken): Outcome {
    const key = token.kind === 'key' ? token.key : undefined;
    if (token.kind === 'key' && token.event === 'release') {
      const taken = key !== undefined && this.taken.delete(formatKey(key));
      if (this.waiting) return { pending: true };
      return taken ? { cancelled: true } : { send: token.raw };
    }
    if (!this.waiting) {
      if (key && sameKey(key, this.prefix)) {
        this.waiting = true;
        this.taken.add(formatKey(key));
        return { pending: true };
      }
      return { send: token.raw };
    }
    this.waiting = false;
    if (!key) return { cancelled: true };
    const name = formatKey(key);
    const bound = this.keys.get(name);
    if (!bound) return { cancelled: true };
    if ('client' in bound.bound && bound.bound.client === 'send-prefix') {
      // The prefix again: its own bytes, in whatever form the terminal sent them.
      if (sameKey(key, this.prefix)) return { send: token.raw };
      return { send: this.prefixBytes() };
    }
    this.taken.add(name);
    return bound.bound;
  }

  /** The prefix key's bytes as a legacy terminal sends them ('' for a key such a terminal cannot send). */
  prefixBytes(): string {
    return keyBytes(this.prefix) ?? '';
  }

  /** The key table in help order, for the help overlay. */
  bindings(): BoundKey[] {
    return [...this.keys.values()];
  }
}

/** The help overlay's text: the prefix, then each key (keys that do the same thing on one line). */
export function helpLines(bindings: Readonly<Record<string, Binding>>, prefix: string): string[] {
  const keys = new PrefixKeys({ prefix, bindings });
  const rows: Array<{ keys: string[]; description: string }> = [];
  for (const bound of keys.bindings()) {
    const row = rows.find((r) => r.description === bound.description);
    if (row) row.keys.push(bound.written);
    else rows.push({ keys: [bound.written], description: bound.description });
  }
  const width = Math.min(24, Math.max(...rows.map((r) => r.keys.join(' ').length)));
  return [
    `Prefix ${formatKey(keys.prefix)}, then:`,
    ...rows.map((r) => `  ${r.keys.join(' ').padEnd(width)}  ${r.description}`),
  ];
}
