import { router } from '../trpc.js';
import { bookOrderDelivery, getOrderDeliveryBooking } from './procedures/delivery-booking.js';
import { getOrder } from './procedures/get-order.js';
import { listOrders } from './procedures/list-orders.js';
import { placeOrder } from './procedures/place-order.js';
import { quoteOrder } from './procedures/quote-order.js';
import { transitionOrder } from './procedures/transition-order.js';
import { updateOrderDelivery } from './procedures/update-delivery.js';

/** /v1/me/orders… (checkout and orders). */
export const myOrdersRouter = router({
  quote: quoteOrder,
  place: placeOrder,
  list: listOrders,
  get: getOrder,
  deliveryBooking: getOrderDeliveryBooking,
  bookDelivery: bookOrderDelivery,
  transition: transitionOrder,
  updateDelivery: updateOrderDelivery,
});
