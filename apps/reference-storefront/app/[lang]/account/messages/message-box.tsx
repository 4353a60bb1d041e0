import { ActionForm } from '../../../_components/action-form';
import { messages } from '../../../../lib/messages';
import { postMessageAction, startConversationAction } from './actions';

/**
 * The one message box of the shop: a reply in a conversation (`conversation`), or a first message
 * about a listing, an order or to support (`subject`), which opens or continues the conversation.
 */
export function MessageBox({
  lang,
  name,
  label,
  submit,
  conversation,
  subject,
  back,
}: {
  lang: string;
  /** the form's accessible name */
  name: string;
  label?: string;
  submit?: string;
  conversation?: string;
  subject?: { listing_id: string } | { order_id: string } | { support: 'true' };
  /** where to come back to after signing in */
  back?: string;
}) {
  const t = messages(lang).inbox;
  return (
    <ActionForm
      action={conversation ? postMessageAction : startConversationAction}
      name={name}
      submit={submit ?? t.send}
      hidden={{ lang, ...(conversation ? { id: conversation } : subject), ...(back ? { back } : {}) }}
      fields={[{ name: 'body', label: label ?? t.reply, type: 'textarea', rows: 4, required: true, hint: t.replyHint }]}
    />
  );
}
