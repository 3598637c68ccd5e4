/**
 * Daml-LF engine errors → Canton's error codes and causes (CommandExecutionErrors.Interpreter): uncaught exceptions
 * and failWithStatus are DAML_FAILURE (`Interpretation error: Error: User failure: <errorId> (error category N):
 * <message>`, context `error_id` and the metadata), ERROR is INTERPRETATION_USER_ERROR, authorization failures
 * DAML_AUTHORIZATION_ERROR, a consumed contract CONTRACT_NOT_ACTIVE, and so on.
 */
import { CantonError, contractNotFound, partyNotKnown, type ErrorCode } from '../errors.js';
import { ImportError } from './lf/convert.js';
import { EngineError, FailureStatusError } from './lf/errors.js';

const PREFIX = 'Interpretation error: Error: ';

const CODES: Partial<Record<EngineError['kind'], ErrorCode>> = {
  UserError: 'INTERPRETATION_USER_ERROR',
  TemplatePreconditionViolated: 'TEMPLATE_PRECONDITION_VIOLATED',
  FailedAuthorization: 'DAML_AUTHORIZATION_ERROR',
  ContractNotActive: 'CONTRACT_NOT_ACTIVE',
  ContractKeyNotFound: 'CONTRACT_KEY_NOT_FOUND',
  DuplicateContractKey: 'DUPLICATE_CONTRACT_KEY',
  WronglyTypedContract: 'WRONGLY_TYPED_CONTRACT',
  ContractDoesNotImplementInterface: 'CONTRACT_DOES_NOT_IMPLEMENT_INTERFACE',
  ContractDoesNotImplementRequiringInterface: 'CONTRACT_DOES_NOT_IMPLEMENT_REQUIRING_INTERFACE',
  NonComparableValues: 'NON_COMPARABLE_VALUES',
  ContractIdComparability: 'CONTRACT_ID_COMPARABILITY',
  ValueNesting: 'VALUE_NESTING',
  CreateEmptyContractKeyMaintainers: 'CREATE_EMPTY_CONTRACT_KEY_MAINTAINERS',
  FetchEmptyContractKeyMaintainers: 'FETCH_EMPTY_CONTRACT_KEY_MAINTAINERS',
  UpgradeTranslationFailed: 'INTERPRETATION_UPGRADE_ERROR_TRANSLATION_FAILED',
  UpgradeValidationFailed: 'INTERPRETATION_UPGRADE_ERROR_VALIDATION_FAILED',
};

export function toCantonError(e: unknown): unknown {
  if (e instanceof CantonError) return e;
  if (e instanceof ImportError)
    return new CantonError('COMMAND_PREPROCESSING_FAILED', e.message, { context: { path: e.details['path'] ?? '(root)' } });
  if (e instanceof FailureStatusError) {
    const s = e.status;
    return new CantonError(s.category === 8 ? 'DAML_FAILURE_INVALID' : 'DAML_FAILURE', `${PREFIX}User failure: ${e.message}`, {
      context: { ...s.metadata, error_id: s.errorId },
      resources: [],
      definiteAnswer: false,
    });
  }
  if (!(e instanceof EngineError)) return e;
  if (e.kind === 'ContractNotFound') return contractNotFound(e.details['contractId'] ?? '');
  if (e.kind === 'PartyNotKnown') return partyNotKnown(e.details['party'] ?? '');
  const code = CODES[e.kind] ?? 'DAML_INTERPRETATION_ERROR';
  const cause = e.kind === 'UserError' ? `${PREFIX}User abort: ${e.message}` : `${PREFIX}${e.message}`;
  return new CantonError(code, cause, { context: { ...e.details } });
}
