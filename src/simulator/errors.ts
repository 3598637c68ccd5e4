/**
 * JsCantonError builders. Shapes follow the `JsCantonError` schema of the JSON Ledger API v2;
 * error codes, categories and gRPC codes follow Canton's error code catalogue.
 */
import { randomUUID } from 'node:crypto';

/** Canton error categories (com.digitalasset.base.error.ErrorCategory). */
export const ErrorCategory = {
  TransientServerFailure: 1,
  ContentionOnSharedResources: 2,
  DeadlineExceededRequestStateUnknown: 3,
  SystemInternalAssumptionViolated: 4,
  AuthInterceptorInvalidAuthenticationCredentials: 6,
  InsufficientPermission: 7,
  InvalidIndependentOfSystemState: 8,
  InvalidGivenCurrentSystemStateOther: 9,
  InvalidGivenCurrentSystemStateResourceExists: 10,
  InvalidGivenCurrentSystemStateResourceMissing: 11,
  InvalidGivenCurrentSystemStateSeekAfterEnd: 12,
} as const;

/** gRPC status codes. */
export const Grpc = {
  INVALID_ARGUMENT: 3,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  ABORTED: 10,
  OUT_OF_RANGE: 11,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  UNAUTHENTICATED: 16,
} as const;

const httpStatusForGrpc: Record<number, number> = {
  [Grpc.INVALID_ARGUMENT]: 400,
  [Grpc.NOT_FOUND]: 404,
  [Grpc.ALREADY_EXISTS]: 409,
  [Grpc.PERMISSION_DENIED]: 403,
  [Grpc.RESOURCE_EXHAUSTED]: 429,
  [Grpc.FAILED_PRECONDITION]: 400,
  [Grpc.ABORTED]: 409,
  [Grpc.OUT_OF_RANGE]: 400,
  [Grpc.UNIMPLEMENTED]: 501,
  [Grpc.INTERNAL]: 500,
  [Grpc.UNAVAILABLE]: 503,
  [Grpc.UNAUTHENTICATED]: 401,
};

export interface JsCantonErrorBody {
  code: string;
  cause: string;
  correlationId?: string;
  traceId?: string;
  context: Record<string, string>;
  resources?: [string, string][];
  errorCategory: number;
  grpcCodeValue?: number;
  retryInfo?: string;
  definiteAnswer?: boolean;
}

interface ErrorKind {
  code: string;
  category: number;
  grpc: number;
  /** Overrides the HTTP status derived from the gRPC code. */
  http?: number;
}

/** Error codes the simulator emits. */
export const Codes = {
  INVALID_ARGUMENT: { code: 'INVALID_ARGUMENT', category: 8, grpc: Grpc.INVALID_ARGUMENT },
  INVALID_FIELD: { code: 'INVALID_FIELD', category: 8, grpc: Grpc.INVALID_ARGUMENT },
  MISSING_FIELD: { code: 'MISSING_FIELD', category: 8, grpc: Grpc.INVALID_ARGUMENT },
  /** A stream continuation token of another ACS request (Canton RequestValidationErrors.InvalidContinuationToken). */
  INVALID_CONTINUATION_TOKEN: { code: 'INVALID_CONTINUATION_TOKEN', category: 8, grpc: Grpc.INVALID_ARGUMENT },
  /** Canton RequestValidationErrors.DescendingOrderMissingEnd / NonPositiveOffset / NegativeOffset. */
  DESCENDING_ORDER_MISSING_END: { code: 'DESCENDING_ORDER_MISSING_END', category: 8, grpc: Grpc.INVALID_ARGUMENT },
  NON_POSITIVE_OFFSET: { code: 'NON_POSITIVE_OFFSET', category: 8, grpc: Grpc.INVALID_ARGUMENT },
  NEGATIVE_OFFSET: { code: 'NEGATIVE_OFFSET', category: 8, grpc: Grpc.INVALID_ARGUMENT },
  /** A get-updates-page token of another request (Canton RequestValidationErrors.InvalidUpdatesPageToken). */
  INVALID_UPDATES_PAGE_TOKEN: { code: 'INVALID_UPDATES_PAGE_TOKEN', category: 8, grpc: Grpc.INVALID_ARGUMENT },
  COMMAND_PREPROCESSING_FAILED: { code: 'COMMAND_PREPROCESSING_FAILED', category: 8, grpc: Grpc.INVALID_ARGUMENT },
  DAML_AUTHORIZATION_ERROR: { code: 'DAML_AUTHORIZATION_ERROR', category: 8, grpc: Grpc.INVALID_ARGUMENT },
  DAML_INTERPRETATION_ERROR: { code: 'DAML_INTERPRETATION_ERROR', category: 9, grpc: Grpc.FAILED_PRECONDITION },
  TEMPLATES_OR_INTERFACES_NOT_FOUND: { code: 'TEMPLATES_OR_INTERFACES_NOT_FOUND', category: 11, grpc: Grpc.NOT_FOUND },
  CONTRACT_NOT_FOUND: { code: 'CONTRACT_NOT_FOUND', category: 11, grpc: Grpc.NOT_FOUND },
  CONTRACT_KEY_NOT_FOUND: { code: 'CONTRACT_KEY_NOT_FOUND', category: 11, grpc: Grpc.NOT_FOUND },
  CONTRACT_EVENTS_NOT_FOUND: { code: 'CONTRACT_EVENTS_NOT_FOUND', category: 11, grpc: Grpc.NOT_FOUND },
  DUPLICATE_CONTRACT_KEY: { code: 'DUPLICATE_CONTRACT_KEY', category: 10, grpc: Grpc.ALREADY_EXISTS },
  DUPLICATE_COMMAND: { code: 'DUPLICATE_COMMAND', category: 10, grpc: Grpc.ALREADY_EXISTS },
  WRONGLY_TYPED_CONTRACT: { code: 'WRONGLY_TYPED_CONTRACT', category: 9, grpc: Grpc.FAILED_PRECONDITION },
  CONTRACT_NOT_ACTIVE: { code: 'CONTRACT_NOT_ACTIVE', category: 11, grpc: Grpc.NOT_FOUND },
  // Daml-LF engine (uploaded packages): Canton's CommandExecutionErrors.Interpreter
  DAML_FAILURE: { code: 'DAML_FAILURE', category: 9, grpc: Grpc.FAILED_PRECONDITION },
  /** failWithStatus with FailureCategory InvalidIndependentOfSystemState. */
  DAML_FAILURE_INVALID: { code: 'DAML_FAILURE', category: 8, grpc: Grpc.INVALID_ARGUMENT },
  INTERPRETATION_USER_ERROR: { code: 'INTERPRETATION_USER_ERROR', category: 9, grpc: Grpc.FAILED_PRECONDITION },
  TEMPLATE_PRECONDITION_VIOLATED: { code: 'TEMPLATE_PRECONDITION_VIOLATED', category: 8, grpc: Grpc.INVALID_ARGUMENT },
  CONTRACT_DOES_NOT_IMPLEMENT_INTERFACE: { code: 'CONTRACT_DOES_NOT_IMPLEMENT_INTERFACE', category: 8, grpc: Grpc.INVALID_ARGUMENT },
  CONTRACT_DOES_NOT_IMPLEMENT_REQUIRING_INTERFACE: {
    code: 'CONTRACT_DOES_NOT_IMPLEMENT_REQUIRING_INTERFACE',
    category: 8,
    grpc: Grpc.INVALID_ARGUMENT,
  },
  NON_COMPARABLE_VALUES: { code: 'NON_COMPARABLE_VALUES', category: 8, grpc: Grpc.INVALID_ARGUMENT },
  CONTRACT_ID_COMPARABILITY: { code: 'CONTRACT_ID_COMPARABILITY', category: 8, grpc: Grpc.INVALID_ARGUMENT },
  VALUE_NESTING: { code: 'VALUE_NESTING', category: 8, grpc: Grpc.INVALID_ARGUMENT },
  CREATE_EMPTY_CONTRACT_KEY_MAINTAINERS: { code: 'CREATE_EMPTY_CONTRACT_KEY_MAINTAINERS', category: 8, grpc: Grpc.INVALID_ARGUMENT },
  FETCH_EMPTY_CONTRACT_KEY_MAINTAINERS: { code: 'FETCH_EMPTY_CONTRACT_KEY_MAINTAINERS', category: 8, grpc: Grpc.INVALID_ARGUMENT },
  /** A contract of another package version cannot be translated (e.g. a Some field dropped by a downgrade). */
  INTERPRETATION_UPGRADE_ERROR_TRANSLATION_FAILED: {
    code: 'INTERPRETATION_UPGRADE_ERROR_TRANSLATION_FAILED',
    category: 8,
    grpc: Grpc.INVALID_ARGUMENT,
  },
  /** An upgraded contract's recomputed signatories / observers / key differ from the stored ones. */
  INTERPRETATION_UPGRADE_ERROR_VALIDATION_FAILED: {
    code: 'INTERPRETATION_UPGRADE_ERROR_VALIDATION_FAILED',
    category: 9,
    grpc: Grpc.FAILED_PRECONDITION,
  },
  /** Confirmation-phase rejection: an input contract of the transaction is no longer active. */
  LOCAL_VERDICT_INACTIVE_CONTRACTS: { code: 'LOCAL_VERDICT_INACTIVE_CONTRACTS', category: 11, grpc: Grpc.NOT_FOUND },
  /** The ledger time (raised by minLedgerTime*) is too far from the record time. */
  LOCAL_VERDICT_LEDGER_TIME_OUT_OF_BOUND: { code: 'LOCAL_VERDICT_LEDGER_TIME_OUT_OF_BOUND', category: 9, grpc: Grpc.FAILED_PRECONDITION },
  PACKAGE_NOT_FOUND: { code: 'PACKAGE_NOT_FOUND', category: 11, grpc: Grpc.NOT_FOUND },
  // DARs, packages and vetting (Canton's PackageServiceErrors / ParticipantTopologyManagerError / routing)
  INVALID_DAR: { code: 'INVALID_DAR', category: 8, grpc: Grpc.INVALID_ARGUMENT },
  DAR_PARSE_ERROR: { code: 'DAR_PARSE_ERROR', category: 8, grpc: Grpc.INVALID_ARGUMENT },
  ZIP_BOMB: { code: 'ZIP_BOMB', category: 8, grpc: Grpc.INVALID_ARGUMENT },
  KNOWN_PACKAGE_VERSION: { code: 'KNOWN_PACKAGE_VERSION', category: 8, grpc: Grpc.INVALID_ARGUMENT },
  NOT_VALID_UPGRADE_PACKAGE: { code: 'NOT_VALID_UPGRADE_PACKAGE', category: 8, grpc: Grpc.INVALID_ARGUMENT },
  TOPOLOGY_CANNOT_VET_DUE_TO_MISSING_PACKAGES: { code: 'TOPOLOGY_CANNOT_VET_DUE_TO_MISSING_PACKAGES', category: 11, grpc: Grpc.NOT_FOUND },
  TOPOLOGY_DEPENDENCIES_NOT_VETTED: { code: 'TOPOLOGY_DEPENDENCIES_NOT_VETTED', category: 9, grpc: Grpc.FAILED_PRECONDITION },
  TOPOLOGY_SERIAL_MISMATCH: { code: 'TOPOLOGY_SERIAL_MISMATCH', category: 9, grpc: Grpc.FAILED_PRECONDITION },
  PACKAGE_SERVICE_CANNOT_AUTODETECT_SYNCHRONIZER: {
    code: 'PACKAGE_SERVICE_CANNOT_AUTODETECT_SYNCHRONIZER',
    category: 9,
    grpc: Grpc.FAILED_PRECONDITION,
  },
  NO_SYNCHRONIZER_FOR_SUBMISSION: { code: 'NO_SYNCHRONIZER_FOR_SUBMISSION', category: 9, grpc: Grpc.FAILED_PRECONDITION },
  UPDATE_NOT_FOUND: { code: 'UPDATE_NOT_FOUND', category: 11, grpc: Grpc.NOT_FOUND },
  PARTY_NOT_KNOWN_ON_LEDGER: { code: 'PARTY_NOT_KNOWN_ON_LEDGER', category: 11, grpc: Grpc.NOT_FOUND },
  PARTY_ALREADY_EXISTS: { code: 'PARTY_ALREADY_EXISTS', category: 10, grpc: Grpc.ALREADY_EXISTS },
  USER_ALREADY_EXISTS: { code: 'USER_ALREADY_EXISTS', category: 10, grpc: Grpc.ALREADY_EXISTS },
  USER_NOT_FOUND: { code: 'USER_NOT_FOUND', category: 11, grpc: Grpc.NOT_FOUND },
  UNKNOWN_RESOURCE: { code: 'UNKNOWN_RESOURCE', category: 11, grpc: Grpc.NOT_FOUND },
  /** Canton's LedgerApiErrors.MaximumNumberOfStreams (ContentionOnSharedResources, retryable); 429 as the answer to an upgrade. */
  MAXIMUM_NUMBER_OF_STREAMS: { code: 'MAXIMUM_NUMBER_OF_STREAMS', category: 2, grpc: Grpc.ABORTED, http: 429 },
  OFFSET_AFTER_LEDGER_END: { code: 'OFFSET_AFTER_LEDGER_END', category: 12, grpc: Grpc.OUT_OF_RANGE },
  OFFSET_OUT_OF_RANGE: { code: 'OFFSET_OUT_OF_RANGE', category: 8, grpc: Grpc.INVALID_ARGUMENT },
  PARTICIPANT_PRUNED_DATA_ACCESSED: { code: 'PARTICIPANT_PRUNED_DATA_ACCESSED', category: 9, grpc: Grpc.FAILED_PRECONDITION },
  SYNCHRONIZER_NOT_FOUND: { code: 'UNKNOWN_SYNCHRONIZER', category: 11, grpc: Grpc.NOT_FOUND },
  REASSIGNMENT_NOT_FOUND: { code: 'REASSIGNMENT_NOT_FOUND', category: 11, grpc: Grpc.NOT_FOUND },
  UNAUTHENTICATED: { code: 'UNAUTHENTICATED', category: 6, grpc: Grpc.UNAUTHENTICATED },
  PERMISSION_DENIED: { code: 'PERMISSION_DENIED', category: 7, grpc: Grpc.PERMISSION_DENIED },
  NOT_FOUND: { code: 'NOT_FOUND', category: 11, grpc: Grpc.NOT_FOUND },
  METHOD_NOT_ALLOWED: { code: 'METHOD_NOT_ALLOWED', category: 8, grpc: Grpc.INVALID_ARGUMENT, http: 405 },
  UNIMPLEMENTED: { code: 'UNSUPPORTED_OPERATION', category: 8, grpc: Grpc.UNIMPLEMENTED },
  MAXIMUM_LIST_ELEMENTS: {
    code: 'JSON_API_MAXIMUM_LIST_ELEMENTS_NUMBER_REACHED',
    category: 8,
    grpc: Grpc.INVALID_ARGUMENT,
    http: 413,
  },
  INTERNAL: { code: 'INTERNAL_ERROR', category: 4, grpc: Grpc.INTERNAL },
} as const satisfies Record<string, ErrorKind>;

export type ErrorCode = keyof typeof Codes;

/** An error that becomes a JsCantonError response. */
export class CantonError extends Error {
  readonly kind: ErrorKind;
  readonly context: Record<string, string>;
  readonly resources: [string, string][];
  readonly definiteAnswer: boolean | undefined;

  constructor(
    code: ErrorCode,
    cause: string,
    opts: { context?: Record<string, string>; resources?: [string, string][]; definiteAnswer?: boolean } = {},
  ) {
    super(cause);
    this.kind = Codes[code];
    this.context = opts.context ?? {};
    this.resources = opts.resources ?? [];
    this.definiteAnswer = opts.definiteAnswer;
  }

  get httpStatus(): number {
    return this.kind.http ?? httpStatusForGrpc[this.kind.grpc] ?? 400;
  }

  toBody(correlationId?: string): JsCantonErrorBody {
    const traceId = randomUUID().replaceAll('-', '');
    const body: JsCantonErrorBody = {
      code: this.kind.code,
      cause: this.message,
      correlationId: correlationId ?? traceId,
      traceId,
      context: { participant: 'participant1', category: String(this.kind.category), ...this.context },
      resources: this.resources,
      errorCategory: this.kind.category,
      grpcCodeValue: this.kind.grpc,
    };
    if (this.definiteAnswer !== undefined) body.definiteAnswer = this.definiteAnswer;
    return body;
  }
}

/** A request that cannot be decoded: answered with 400 text/plain, as the JSON API does. */
export class DecodeError extends Error {}

export const partyNotKnown = (party: string): CantonError =>
  new CantonError('PARTY_NOT_KNOWN_ON_LEDGER', `Party not known on ledger: ${party}`, {
    context: { party },
    resources: [['PARTY', party]],
  });

export const contractNotFound = (contractId: string): CantonError =>
  new CantonError('CONTRACT_NOT_FOUND', `Contract could not be found with id ${contractId}`, {
    context: { contractId },
    resources: [['CONTRACT_ID', contractId]],
  });

/** The message of a caught value: an Error's message, anything else as JavaScript prints it. */
export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
