import { ActionForm } from '../../../_components/action-form';
import { listingAction } from './actions';

/**
 * A button that asks before it acts (delete a draft, close a listing): the question opens in place,
 * and only its "Yes" posts. A <details> element, so it works with the keyboard and without JavaScript.
 */
export function ConfirmAction({ lang, id, action, label, question, yes }: { lang: string; id: string; action: 'delete' | 'close'; label: string; question: string; yes: string }) {
  return (
    <details className={`confirm ${action}`}>
      <summary>{label}</summary>
      <p>{question}</p>
      <ActionForm name={label} action={listingAction} hidden={{ lang, id, action }} submit={yes} fields={[]} />
    </details>
  );
}
