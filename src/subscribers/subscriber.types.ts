export interface SubscriberRow {
  id: string;
  email: string | null;
  phone: string | null;
  firstName: string | null;
  lastName: string | null;
  locale: string | null;
  timezone: string | null;
  data: Record<string, unknown>;
  createdAt: Date;
  updatedAt: Date;
}

/** The part of a subscriber that enqueue reads: where and when to reach them. */
export type SubscriberAddresses = Pick<SubscriberRow, 'id' | 'email' | 'phone' | 'locale' | 'timezone' | 'data'>;

/** What a template may read of its recipient (`subscriber.*`): the profile without timestamps. */
export type SubscriberProfile = Omit<SubscriberRow, 'createdAt' | 'updatedAt'>;
