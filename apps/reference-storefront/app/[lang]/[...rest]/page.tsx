import { notFound } from 'next/navigation';

/** Any path under a language that no page matches: the shop's own 404 page rather than Next's plain one. */
export default function UnknownPage(): never {
  notFound();
}
