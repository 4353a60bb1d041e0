'use client';

/** Anything the pages did not expect (the API down, a bug): said plainly, with a way to try again. */
export default function ErrorPage({ reset }: { error: Error; reset: () => void }) {
  return (
    <main id="main" className="narrow">
      <h1>Something went wrong</h1>
      <p>The back office could not show this page. The API may be unreachable.</p>
      <button type="button" onClick={reset}>
        Try again
      </button>
    </main>
  );
}
