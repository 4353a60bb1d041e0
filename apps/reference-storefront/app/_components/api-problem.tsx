import { problemDetail } from '../../lib/api';

/** An API failure shown in place, so one failing call does not take the whole page down. */
export function ApiProblem({ error }: { error: Parameters<typeof problemDetail>[0] }) {
  return (
    <p className="problem" role="alert">
      {problemDetail(error)}
    </p>
  );
}
