import type { ReactNode } from 'react';
import type { Order } from '../../../../lib/orders';

/** What every extra part of the order page gets: the order as the API returned it for the viewer. */
export interface OrderPartProps {
  order: Order;
  lang: string;
  viewer: 'buyer' | 'seller';
}
export type OrderPart = (props: OrderPartProps) => ReactNode;
