/** Keyset position in a list ordered by creation time, newest first (monitors, deliveries). */
export interface ListPosition {
  createdAt: string;
  id: string;
}
