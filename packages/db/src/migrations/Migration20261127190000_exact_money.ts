import { Migration } from '@mikro-orm/migrations';

/**
 * Money in SQL the same as in JS (issue 31; packages/domain/src/core/money.ts), exactly:
 *
 * - `exchange_rates.rate` is `numeric`: the decimal the operator or the rates source gave (10.95,
 *   not the binary 10.9499…), read by JS as its text.
 * - `price_factors` holds each factor as the exact fraction `factor_num / factor_den` (integers): a
 *   factor through an inverse rate (1 / 10.95) has no finite decimal, and one rounded to some digits
 *   would round a different half than the app's conversion.
 * - `hm_round_div(n, d)`: n / d rounded half away from zero with integer arithmetic — the rule of
 *   `round(numeric)` and of the app; `price_base` is computed with it by the trigger and the reprice job.
 */
export class Migration20261127190000_exact_money extends Migration {
  override name = 'Migration20261127190000_exact_money';

  up(): void {
    this.addSql(`alter table exchange_rates alter column rate type numeric using rate::numeric`);

    this.addSql(`create or replace function hm_round_div(n numeric, d numeric) returns bigint
      language sql immutable parallel safe strict
      as $$ select (sign(n) * div(2 * abs(n) + d, 2 * d))::bigint $$`);

    this.addSql(`alter table price_factors add column factor_num numeric, add column factor_den numeric`);
    this.addSql(`update price_factors set factor_num = round(factor * power(10::numeric, scale(factor))), factor_den = round(power(10::numeric, scale(factor)))`);
    this.addSql(`alter table price_factors drop column factor,
      alter column factor_num set not null, alter column factor_den set not null,
      add constraint price_factors_fraction_check check (factor_num > 0 and factor_den > 0 and scale(factor_num) = 0 and scale(factor_den) = 0)`);

    this.addSql(`create or replace function hm_listing_price() returns trigger language plpgsql as $$
      begin
        -- the default currency is its own unit; others go through the day's factor (null until a rate exists)
        new.price_base := case when new.price_amount is null then null else (
          select case when f.currency is not null then hm_round_div(new.price_amount * f.factor_num, f.factor_den)
                      when new.price_currency = m.currencies[1] then new.price_amount end
            from marketplaces m left join price_factors f on f.marketplace_id = m.id and f.currency = new.price_currency
           where m.id = new.marketplace_id) end;
        return new;
      end $$`);
  }
}
