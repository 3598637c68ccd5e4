/**
 * The request schemas (schemas.ts) checked against the official generated types of the JSON Ledger API
 * (`@canton-network/core-ledger-client-types`, 3.5) at compile time: every request the spec's type allows must be an
 * input the schema's type accepts, so a field the spec renames, retypes or makes optional while the simulator still
 * requires it is a build error, not a 400 a real client would meet. The schemas may read fewer fields than the spec.
 */
import type { v3_5 } from '@canton-network/core-ledger-client-types';
import type { z } from 'zod';
import type * as S from './schemas.js';
import type * as I from './schemas-interactive.js';

type Spec = v3_5.components['schemas'];

/** `true` when every value of the spec type `T` is an input `Schema` accepts (by type). */
type Accepts<Schema extends z.ZodType, T> = [T] extends [z.input<Schema>] ? true : false;

export const REQUEST_SCHEMAS_ACCEPT_THE_SPEC = {
  EventFormat: true satisfies Accepts<typeof S.EventFormatSchema, Spec['EventFormat']>,
  TransactionFormat: true satisfies Accepts<typeof S.TransactionFormatSchema, Spec['TransactionFormat']>,
  UpdateFormat: true satisfies Accepts<typeof S.UpdateFormatSchema, Spec['UpdateFormat']>,
  DisclosedContract: true satisfies Accepts<typeof S.DisclosedContractSchema, Spec['DisclosedContract']>,
  JsCommands: true satisfies Accepts<typeof S.JsCommandsSchema, Spec['JsCommands']>,
  SubmitAndWaitForTransaction: true satisfies Accepts<
    typeof S.SubmitAndWaitForTransactionSchema,
    Spec['JsSubmitAndWaitForTransactionRequest']
  >,
  ReassignmentCommands: true satisfies Accepts<typeof S.ReassignmentCommandsSchema, Spec['ReassignmentCommands']>,
  SubmitReassignment: true satisfies Accepts<typeof S.SubmitReassignmentSchema, Spec['SubmitReassignmentRequest']>,
  SubmitAndWaitForReassignment: true satisfies Accepts<
    typeof S.SubmitAndWaitForReassignmentSchema,
    Spec['SubmitAndWaitForReassignmentRequest']
  >,
  CompletionStreamRequest: true satisfies Accepts<typeof S.CompletionStreamRequestSchema, Spec['CompletionStreamRequest']>,
  GetUpdatesRequest: true satisfies Accepts<typeof S.GetUpdatesRequestSchema, Spec['GetUpdatesRequest']>,
  GetUpdatesPageRequest: true satisfies Accepts<typeof S.GetUpdatesPageRequestSchema, Spec['GetUpdatesPageRequest']>,
  GetUpdateByOffset: true satisfies Accepts<typeof S.GetUpdateByOffsetSchema, Spec['GetUpdateByOffsetRequest']>,
  GetUpdateById: true satisfies Accepts<typeof S.GetUpdateByIdSchema, Spec['GetUpdateByIdRequest']>,
  GetTransactionByOffset: true satisfies Accepts<typeof S.GetTransactionByOffsetSchema, Spec['GetTransactionByOffsetRequest']>,
  GetTransactionById: true satisfies Accepts<typeof S.GetTransactionByIdSchema, Spec['GetTransactionByIdRequest']>,
  GetActiveContracts: true satisfies Accepts<typeof S.GetActiveContractsRequestSchema, Spec['GetActiveContractsRequest']>,
  GetActiveContractsPage: true satisfies Accepts<typeof S.GetActiveContractsPageRequestSchema, Spec['GetActiveContractsPageRequest']>,
  GetEventsByContractId: true satisfies Accepts<typeof S.GetEventsByContractIdSchema, Spec['GetEventsByContractIdRequest']>,
  GetContract: true satisfies Accepts<typeof S.GetContractRequestSchema, Spec['GetContractRequest']>,
  AllocateParty: true satisfies Accepts<typeof S.AllocatePartyRequestSchema, Spec['AllocatePartyRequest']>,
  User: true satisfies Accepts<typeof S.UserSchema, Spec['User']>,
  Right: true satisfies Accepts<typeof S.RightSchema, Spec['Right']>,
  CreateUser: true satisfies Accepts<typeof S.CreateUserRequestSchema, Spec['CreateUserRequest']>,
  UpdateUser: true satisfies Accepts<typeof S.UpdateUserRequestSchema, Spec['UpdateUserRequest']>,
  GrantUserRights: true satisfies Accepts<typeof S.UserRightsRequestSchema, Spec['GrantUserRightsRequest']>,
  RevokeUserRights: true satisfies Accepts<typeof S.UserRightsRequestSchema, Spec['RevokeUserRightsRequest']>,
  UpdatePartyDetails: true satisfies Accepts<typeof S.UpdatePartyDetailsRequestSchema, Spec['UpdatePartyDetailsRequest']>,
  GetPreferredPackages: true satisfies Accepts<typeof S.GetPreferredPackagesRequestSchema, Spec['GetPreferredPackagesRequest']>,
  ListVettedPackages: true satisfies Accepts<typeof S.ListVettedPackagesRequestSchema, Spec['ListVettedPackagesRequest']>,
  Signature: true satisfies Accepts<typeof I.SignatureSchema, Spec['Signature']>,
  GenerateExternalPartyTopology: true satisfies Accepts<
    typeof I.GenerateExternalPartyTopologySchema,
    Spec['GenerateExternalPartyTopologyRequest']
  >,
  AllocateExternalParty: true satisfies Accepts<typeof I.AllocateExternalPartySchema, Spec['AllocateExternalPartyRequest']>,
  JsPrepareSubmission: true satisfies Accepts<typeof I.JsPrepareSubmissionRequestSchema, Spec['JsPrepareSubmissionRequest']>,
  JsExecuteSubmission: true satisfies Accepts<typeof I.JsExecuteSubmissionRequestSchema, Spec['JsExecuteSubmissionRequest']>,
};
