'use client';

/**
 * Last resort for what the page did not catch itself (API problems are shown in place). In
 * production Next hides the message from the browser; the digest matches the server log line.
 */
export default function ShopError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <main className="wrap">
      <div className="problem" role="alert">
        <h1>Something went wrong</h1>
        <p>The page could not be shown. Please try again in a moment.</p>
        {error.digest && <p className="muted">Reference: {error.digest}</p>}
        <button type="button" onClick={reset}>
          Try again
        </button>
      </div>
    </main>
  );
}
