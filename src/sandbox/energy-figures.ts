/** java-tron's figures for one USDT transfer: to a holder, and to an address without USDT (a new storage slot). */
export const USDT_TRANSFER_ENERGY = 64_285;
export const USDT_TRANSFER_ENERGY_NEW_HOLDER = 130_285;
