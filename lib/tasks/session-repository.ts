import type { SessionItem } from './model.js';

/** Sessions table: ownership and ordering of each conversation's turns. */
export interface SessionRepository {
  get(sessionId: string): Promise<SessionItem | undefined>;
  create(item: SessionItem): Promise<void>;
  /** Adds a turn if the session belongs to `businessId`; false otherwise. */
  appendTurn(sessionId: string, businessId: string, taskId: string, createdAt: string): Promise<boolean>;
  delete(sessionId: string): Promise<void>;
  listByBusiness(businessId: string, limit: number): Promise<SessionItem[]>;
}
