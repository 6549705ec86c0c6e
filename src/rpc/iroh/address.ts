import { z } from 'zod';
import { EndpointAddr, EndpointId, EndpointTicket } from './iroh';

/** An endpoint id as iroh prints it: the 32-byte public key in lowercase hex. */
const ENDPOINT_ID = /^[0-9a-f]{64}$/;

const ID_HINT = 'an endpoint id is 64 hex digits';

/** A user-typed endpoint id, trimmed and lowercased, checked to be one. */
export const endpointIdSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(ENDPOINT_ID, {
    error: (issue) => `${JSON.stringify(issue.input)} is not an endpoint id; ${ID_HINT}`,
  });

/** A peer to dial, as the user wrote it: a bare endpoint id, or a ticket (id plus addresses). */
export interface PeerAddress {
  /** The peer's endpoint id, lowercase hex. */
  id: string;
  addr: EndpointAddr;
  kind: 'id' | 'ticket';
}

/** Text that is neither an endpoint id nor a ticket. */
export class PeerAddressError extends Error {}

/** The endpoint id in `text`, or undefined when it is not one. */
export function parseEndpointId(text: string): string | undefined {
  const parsed = endpointIdSchema.safeParse(text);
  return parsed.success ? parsed.data : undefined;
}

/** Parse `text` as an endpoint id or a ticket; the error says what either looks like. */
export function parsePeerAddress(text: string): PeerAddress {
  const id = parseEndpointId(text);
  // A bare id carries no addresses: discovery (or a relay) has to find the peer.
  if (id) return { id, addr: new EndpointAddr(EndpointId.fromString(id)), kind: 'id' };
  const trimmed = text.trim();
  if (trimmed.startsWith('endpoint')) {
    try {
      const addr = EndpointTicket.fromString(trimmed).endpointAddr();
      return { id: addr.id().toString(), addr, kind: 'ticket' };
    } catch {
      throw new PeerAddressError(
        `${JSON.stringify(abbreviate(trimmed))} looks like a ticket but does not parse; copy the whole line \`fux id --ticket\` printed`,
      );
    }
  }
  throw new PeerAddressError(
    `${JSON.stringify(abbreviate(trimmed))} is neither an endpoint id nor a ticket; ${ID_HINT} and a ticket starts with "endpoint" (\`fux id\` and \`fux id --ticket\` print them)`,
  );
}

function abbreviate(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
