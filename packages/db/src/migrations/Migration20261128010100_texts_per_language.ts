import { Migration } from '@mikro-orm/migrations';

/**
 * Texts per language (issue 29), like `term_kinds[].names`: a site's opening hours and a media
 * item's alt text gain a map per language beside the default language's text, which stays the
 * fallback (`opening_hours`, `alt`). Additive: null until an operator fills them.
 */
export class Migration20261128010100_texts_per_language extends Migration {
  override name = 'Migration20261128010100_texts_per_language';

  up(): void {
    this.addSql(`alter table sites add column opening_hours_by_language jsonb`);
    this.addSql(`alter table media add column alts jsonb`);
  }
}
