/**
 * The one place that loads iroh's native bindings. `@number0/iroh` 1.1.0 names a `main` file it
 * does not ship (iroh-js/index.js), so `require('@number0/iroh')` prints a DeprecationWarning on
 * every run while Node falls back to index.js; requiring index.js by path loads the same module
 * silently.
 */
export {
  Endpoint,
  EndpointAddr,
  EndpointId,
  EndpointTicket,
  RelayMode,
  SecretKey,
  presetMinimal,
  presetN0,
} from '@number0/iroh/index.js';
export type { BiStream, Connection, Incoming, RecvStream, SendStream } from '@number0/iroh/index.js';
