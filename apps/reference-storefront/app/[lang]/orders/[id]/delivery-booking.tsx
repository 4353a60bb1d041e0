import { safe } from '@trpc/client';
import { apiAs, problemOf } from '../../../../lib/api';
import { formatDate } from '../../../../lib/intl';
import type { Messages } from '../../../../lib/messages';
import type { Order } from '../../../../lib/orders';
import { bookDeliveryAction } from '../actions';
import { OrderForm } from '../order-forms';

/**
 * The buyer's delivery-time picker, when the buyer books the delivery (GET delivery-booking; its
 * 409 means the order's delivery is not booked by the buyer, so nothing is shown).
 */
export async function DeliveryBooking({ order, lang, token, t }: { order: Order; lang: string; token: string; t: Messages['orders']['order'] }) {
  const [booking, error] = await safe(apiAs(token).me.orders.deliveryBooking.query({ id: order.id }));
  if (error) {
    if (problemOf(error)?.status === 409) return null;
    throw error;
  }
  const slotText = (s: { date: string; label: string }) => `${formatDate(`${s.date}T12:00:00Z`, lang)} ${s.label}`;
  return (
    <section aria-labelledby="booking-title" data-testid="delivery-booking">
      <h2 id="booking-title">{t.booking}</h2>
      {booking.booked && (
        <p>
          {t.booked}: <strong>{slotText(booking.booked)}</strong>
        </p>
      )}
      {booking.changeable ? (
        <OrderForm action={bookDeliveryAction} hidden={{ lang, order_id: order.id }} name={t.booking} success={t.done}>
          <div className="field">
            <label htmlFor="booking-slot">{t.slot}</label>
            <select id="booking-slot" name="slot" defaultValue={booking.booked ? `${booking.booked.date}|${booking.booked.window}` : undefined}>
              {booking.slots.map((s) => (
                <option key={`${s.date}|${s.window}`} value={`${s.date}|${s.window}`} disabled={s.full}>
                  {slotText(s)}
                  {s.full ? ` (${t.full})` : ''}
                </option>
              ))}
            </select>
          </div>
          <button type="submit">{t.book}</button>
        </OrderForm>
      ) : (
        <p>{t.notChangeable}</p>
      )}
    </section>
  );
}
