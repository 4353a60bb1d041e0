import type { FormState } from '../../../../lib/forms';

/** What the editor's save/publish action answers, on top of a form's state. */
export interface EditorState extends FormState {
  /** the listing's id once a draft exists (a new listing gets one on its first save) */
  id?: string;
  /** what happened: saved, a draft created, or saved but refused for publishing */
  outcome?: 'saved' | 'created' | 'not_published';
}
