/**
 * The validator's liveness automation (Splice's faucet-coupon trigger in its current form): once per open round the
 * validator exercises `ValidatorLicense_RecordValidatorLivenessActivity` on its licence, creating a
 * `ValidatorLivenessActivityRecord` for that round. The DSO grants the licence (`ValidatorLicense`) the first time
 * the automation finds none — at setup, or on a data dir set up before licences existed.
 */
import type { WalletCore } from './wallet-core.js';
import { args, tid } from './names.js';
import { LICENSE_QN } from './templates-validator-license.js';
import { asText } from '../lf-text.js';

/** The validator's licence, created by the DSO when missing. */
export function validatorLicense(app: WalletCore): string {
  const v = app.validatorParty;
  const existing = app.contracts(v, LICENSE_QN.license).find((c) => args(c).validator === v);
  if (existing) return existing.contractId;
  const r = app.submit(
    [app.dso],
    [{ CreateCommand: { templateId: tid(LICENSE_QN.license), createArguments: { dso: app.dso, validator: v, lastActiveAt: null } } }],
  );
  return r.tx.nodes.find((n) => n.kind === 'create')?.contractId ?? '';
}

/** Records the validator's liveness in the current open round unless done already; returns 1 when it recorded. */
export function recordLivenessActivity(app: WalletCore): number {
  const v = app.validatorParty;
  const round = app.openRound();
  const licence = validatorLicense(app);
  const done = [LICENSE_QN.livenessRecord, LICENSE_QN.faucetCoupon].some((qn) =>
    app.contracts(v, qn).some((c) => args(c).validator === v && BigInt(asText(args(c).round)) === round.round),
  );
  if (done) return 0;
  app.exercise([v], LICENSE_QN.license, licence, 'ValidatorLicense_RecordValidatorLivenessActivity', { openRound: round.cid });
  return 1;
}
