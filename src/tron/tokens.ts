/** Well-known TRC-20 contracts. */

/** Tether USD (USDT) on TRON mainnet, 6 decimals: the token almost every rental is for. */
export const USDT_MAINNET = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
