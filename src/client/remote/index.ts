/** Remote attach for the CLI: dial a fux server over iroh, this machine's identity, the `remote` procedures. */
export { openRemote, type OpenRemoteOptions, type RemoteStatus, type RemoteTransport } from './connect';
export {
  RemoteError,
  RemoteGoneError,
  RemoteRefusedError,
  RemoteTargetError,
  RemoteUnreachableError,
} from './errors';
export { localIdentity } from './identity';
export { remoteSettings } from './settings';
export { allowedLines, endpointIds } from './control';
export { remoteAttachTransport } from './attach-transport';
