/**
 * Shapes of the Energy API v1 as the spec defines them, after normalisation. A response object also carries,
 * at run time, any key the spec does not name, as the server sent it (see shape.ts `object`): the types
 * list the documented keys, which are the ones the code may rely on; the others are only passed on by
 * `--json`.
 */

export interface TimeResponse {
  unix_time: number;
}

export interface BalanceResponse {
  available_trx: string;
  held_trx: string;
  status: string;
}

export interface OptionsResponse {
  energy_per_portion: number;
  max_energy: number;
  /** Always integers here, even when the server sent some as strings. */
  duration_hours: number[];
  intake_enabled: boolean;
}

export interface QuoteRequest {
  address: string;
  energy: number;
  duration_hours: number;
}

export interface QuoteResponse {
  address: string;
  energy: number;
  duration_hours: number;
  energy_trx: string;
  activation_trx: string | null;
  total_trx: string;
  can_afford: boolean;
}

export interface CreateOrderRequest {
  client_request_id: string;
  address: string;
  energy: number;
  duration_hours: number;
  expected_total_trx: string;
}

export interface OrderFailure {
  code: string;
  message: string;
}

export interface Order {
  id: string;
  client_request_id: string;
  address: string;
  energy: number;
  duration_hours: number;
  total_trx: string;
  status: string;
  lifecycle_final: boolean;
  delivery_final: boolean;
  created_at: number;
  updated_at: number;
  failure: OrderFailure | null;
}

export interface OrderList {
  items: Order[];
  next_cursor: string | null;
}
