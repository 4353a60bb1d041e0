export const TAG = 'Payouts';
