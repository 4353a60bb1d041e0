/** Entry point of the vouchers module: what other modules, the flows and the HTTP contract may use. Everything else in vouchers/ is private. */
export { createVoucher, listVouchers } from './commands/vouchers.js';
export { voucherLine, voucherRefusal } from './voucher-rules.js';
export { ZVoucherInput } from './voucher.schema.js';
export { voucherIdByCode, voucherUses } from './vouchers.queries.js';
