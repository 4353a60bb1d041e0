import Link from 'next/link';

export default function NotFound() {
  return (
    <main id="main" className="narrow">
      <h1>Not found</h1>
      <p>There is nothing here, or it belongs to another marketplace.</p>
      <Link href="/">Back to Attention</Link>
    </main>
  );
}
