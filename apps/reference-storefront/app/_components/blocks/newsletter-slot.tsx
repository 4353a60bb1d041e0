import type { ReactNode } from 'react';
import type { NewsletterProps } from './types';

/**
 * The form a newsletter block shows. Until the shop has its sign-up form, the block shows the
 * editor's words only; wiring the form is this one line:
 * `export const newsletterForm = (p: NewsletterProps): ReactNode => <NewsletterForm {...p} />;`
 */
export const newsletterForm: ((p: NewsletterProps) => ReactNode) | undefined = undefined;
