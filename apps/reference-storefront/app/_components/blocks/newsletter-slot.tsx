import type { ReactNode } from 'react';
import { NewsletterForm } from '../newsletter-form';
import type { NewsletterProps } from './types';

/** The form a newsletter block shows: the shop's sign-up form with the editor's heading, text and button label. */
export const newsletterForm = (p: NewsletterProps): ReactNode => <NewsletterForm {...p} />;
