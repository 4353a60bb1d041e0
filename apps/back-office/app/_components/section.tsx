import type { ComponentProps, ReactNode } from 'react';
import { Form } from './form';

/** A titled part of a page (a create form, one of a listing's changes): the heading names the section. Not `shown` (an admin's form to a viewer): nothing. */
export function Section({ id, title, shown = true, children }: { id: string; title: string; shown?: boolean; children: ReactNode }) {
  if (!shown) return null;
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

/** A form under its heading (a create form, one of a listing's changes): not `shown`, nothing. */
export function FormSection({ id, title, shown = true, ...form }: { id: string; title: string; shown?: boolean } & ComponentProps<typeof Form>) {
  return (
    <Section id={id} title={title} shown={shown}>
      <Form {...form} />
    </Section>
  );
}
