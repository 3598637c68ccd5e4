/** The signing policy's decimal helpers are the shared ones (src/common/decimal.ts); kept as this module's API. */
export { compareDecimal, DECIMAL_PATTERN, isDecimal } from '../../common/decimal.js';
