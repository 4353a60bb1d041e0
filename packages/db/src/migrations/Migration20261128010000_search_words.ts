import { Migration } from '@mikro-orm/migrations';

/**
 * Search a shopper trusts (issue 28): compound words, typos and did_you_mean.
 *
 * - `search_words`: each marketplace's vocabulary — the folded words (3+ letters) of its listing
 *   titles and catalogue term names, kept by triggers (a word is added when a title or a term name
 *   first uses it; words are never removed, so a stale word only costs a lookup that finds nothing).
 *   Search expands each query word through it: words that contain it (infix, 4+ letters: `lampa` →
 *   `taklampa`) through a trigram index, and — only for a word no vocabulary word starts with —
 *   words a typo or two away (`levenshtein_less_equal` from fuzzystrmatch narrows, the search
 *   command checks the exact edit distance, transpositions counting one). The expanded words then
 *   go to the same `search_doc`/`title_doc` GIN indexes as today. Words are added in one order (sorted), so
 *   two listings bringing the same new words at once wait for each other instead of deadlocking.
 * - `hm_learn_words(marketplace, text)` adds a text's words; `hm_relearn_words(marketplace)` rebuilds
 *   a marketplace's vocabulary set-wise (the bench seed, which loads with triggers off).
 *
 * pg_trgm (already installed by the foundation) and fuzzystrmatch are contrib extensions marked
 * trusted: a role with CREATE on the database may install them (docs/decisions.md).
 */
export class Migration20261128010000_search_words extends Migration {
  override name = 'Migration20261128010000_search_words';

  up(): void {
    this.addSql(`create extension if not exists fuzzystrmatch`);
    this.addSql(`create table search_words (
      marketplace_id uuid not null references marketplaces(id) on delete cascade,
      word text collate "C" not null,
      primary key (marketplace_id, word)
    )`);
    this.addSql(`create index search_words_trgm_idx on search_words using gin (marketplace_id, word gin_trgm_ops)`);
    this.addSql(`select hm_enable_tenant_rls('search_words', 'marketplace_id', 'select, insert')`);
    this.addSql(`create or replace function hm_words(text) returns setof text
      language sql immutable parallel safe strict
      as $$ select distinct w from regexp_split_to_table(hm_fold($1), '[^[:alnum:]]+') w where length(w) between 3 and 60 $$`);
    this.addSql(`create or replace function hm_learn_words(marketplace uuid, t text) returns void language sql
      as $$ insert into search_words (marketplace_id, word) select marketplace, w from hm_words(t) w order by w collate "C" on conflict do nothing $$`);
    this.addSql(`create or replace function hm_relearn_words(marketplace uuid) returns void language sql as $$
      insert into search_words (marketplace_id, word)
        select distinct marketplace, w from (
          select hm_words(l.title) w from listings l where l.marketplace_id = marketplace and l.title is not null
          union select hm_words(n.value) from catalog_terms t, jsonb_each_text(t.names) n where t.marketplace_id = marketplace) s
        on conflict do nothing $$`);
    this.addSql(`create or replace function hm_listing_words() returns trigger language plpgsql as $$
      begin
        if new.title is not null and (tg_op = 'INSERT' or new.title is distinct from old.title) then
          perform hm_learn_words(new.marketplace_id, new.title);
        end if;
        return null;
      end $$`);
    this.addSql(`create trigger listings_words after insert or update of title on listings for each row execute function hm_listing_words()`);
    this.addSql(`create or replace function hm_term_words() returns trigger language plpgsql as $$
      begin
        perform hm_learn_words(new.marketplace_id, n.value) from jsonb_each_text(new.names) n;
        return null;
      end $$`);
    this.addSql(`create trigger catalog_terms_words after insert or update of names on catalog_terms for each row execute function hm_term_words()`);
    this.addSql(`select hm_relearn_words(id) from marketplaces`);
  }
}
