/**
 * What the simulator uses of the protobuf bindings and of core-tx-visualizer's hashing, in one module so that
 * proto.ts can load them all on first use (see there). Import this only through `loadProto()`.
 */
export {
  CryptoKeyFormat,
  Enums_ParticipantPermission,
  Enums_TopologyChangeOp,
  PreparedTransaction,
  SigningKeySpec,
  SigningKeyUsage,
  SigningPublicKey,
  TopologyTransaction,
} from '@canton-network/core-ledger-proto';
export {
  computeMultiHashForTopology,
  computeSha256CantonHash,
  decodePreparedTransaction,
  hashPreparedTransaction,
} from '@canton-network/core-tx-visualizer';
