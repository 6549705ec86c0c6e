/** Why `fux connect` could not attach or stay attached; each message says what to check. */
export class RemoteError extends Error {}

/** The argument is neither an endpoint id nor a ticket. */
export class RemoteTargetError extends RemoteError {}

/** The server let us in no further: not on its allow-list (or removed from it). */
export class RemoteRefusedError extends RemoteError {
  constructor(
    readonly reason: string,
    peer: string,
  ) {
    super(`${short(peer)} refused this connection: ${reason}`);
  }
}

/** Nothing answered, or the dial failed. */
export class RemoteUnreachableError extends RemoteError {}

/** The server went away for good: it stopped, or it could not be reached again in time. */
export class RemoteGoneError extends RemoteError {}

/** An endpoint id shortened for messages (the full id is in the ones that ask for action). */
export function short(id: string): string {
  return id.length > 16 ? `${id.slice(0, 10)}…` : id;
}
