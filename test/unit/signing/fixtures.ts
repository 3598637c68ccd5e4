/**
 * Real PreparedTransaction and topology fixtures, built with the official protobuf message types
 * (@canton-network/core-ledger-proto) and hashed with the official library (core-tx-visualizer); one module per kind.
 */
export * from './fixtures/values.js';
export * from './fixtures/transfers.js';
export * from './fixtures/app-package.js';
export * from './fixtures/encoding.js';
export * from './fixtures/topology.js';
