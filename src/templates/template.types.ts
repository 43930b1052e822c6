export interface TemplateRow {
  id: string;
  channel: string;
  /** '' is the channel's default variant. */
  locale: string;
  subject: string | null;
  body: string;
  bodyHtml: string | null;
  topic: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface TemplateVariantRow extends TemplateRow {
  projectId: string;
}
