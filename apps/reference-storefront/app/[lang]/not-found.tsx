import Link from 'next/link';

export default function NotFound() {
  return (
    <main className="wrap">
      <h1>Page not found</h1>
      <p>
        <Link href="/">Go to the shop</Link>
      </p>
    </main>
  );
}
