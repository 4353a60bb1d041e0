/**
 * An API failure shown in place, so one failing call does not take the whole page down. Takes the
 * text, not the error: in dev React serializes server component props, and a TRPCClientError
 * (with its Response inside) breaks that stream.
 */
export function ApiProblem({ detail }: { detail: string }) {
  return (
    <p className="problem" role="alert">
      {detail}
    </p>
  );
}
