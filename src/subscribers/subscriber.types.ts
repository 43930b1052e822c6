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
