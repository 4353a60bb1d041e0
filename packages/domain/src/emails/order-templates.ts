/**
 * Order notices (spec: Events → order paid, sent, received; to buyer and seller), per language.
 * Kept apart from the account and listing texts in templates.ts, which merges them into its catalogs.
 */
export const ORDER_TEMPLATES = ['order_paid_buyer', 'order_paid_seller', 'order_sent_buyer', 'order_sent_seller', 'order_received_buyer', 'order_received_seller'] as const;
export type OrderTemplate = (typeof ORDER_TEMPLATES)[number];

interface OrderTexts {
  subject: string;
  body: string;
  button: string;
}

type Language = 'en' | 'sv' | 'de';

const TEXTS: Record<Language, Record<OrderTemplate, OrderTexts>> = {
  en: {
    order_paid_buyer: { subject: 'Thank you for your order', body: 'We have received your payment. The item is now on its way to being sent; the order page follows each step.', button: 'See your order' },
    order_paid_seller: { subject: 'You have sold an item', body: 'The buyer has paid. The order page says how the item reaches them; mark it sent there once it is on its way.', button: 'See the order' },
    order_sent_buyer: { subject: 'Your order is on its way', body: 'Your order has been marked sent. When it arrives, mark it received on the order page.', button: 'See your order' },
    order_sent_seller: { subject: 'Order marked sent', body: 'The order has been marked sent. We will tell you when the buyer has received it.', button: 'See the order' },
    order_received_buyer: { subject: 'Your order is complete', body: 'Your order is marked received. Thank you for shopping with us.', button: 'See your order' },
    order_received_seller: { subject: 'Your sale is complete', body: 'The buyer has received the item. Your payout follows.', button: 'See the order' },
  },
  sv: {
    order_paid_buyer: { subject: 'Tack för din beställning', body: 'Vi har tagit emot din betalning. Varan skickas nu; på beställningssidan kan du följa varje steg.', button: 'Se din beställning' },
    order_paid_seller: { subject: 'Du har sålt en vara', body: 'Köparen har betalat. Beställningssidan visar hur varan når köparen; markera den som skickad där när den är på väg.', button: 'Se beställningen' },
    order_sent_buyer: { subject: 'Din beställning är på väg', body: 'Din beställning har markerats som skickad. Markera den som mottagen på beställningssidan när den har kommit fram.', button: 'Se din beställning' },
    order_sent_seller: { subject: 'Beställningen är markerad som skickad', body: 'Beställningen har markerats som skickad. Vi meddelar dig när köparen har tagit emot den.', button: 'Se beställningen' },
    order_received_buyer: { subject: 'Din beställning är klar', body: 'Din beställning är markerad som mottagen. Tack för att du handlar hos oss.', button: 'Se din beställning' },
    order_received_seller: { subject: 'Din försäljning är klar', body: 'Köparen har tagit emot varan. Din utbetalning följer.', button: 'Se beställningen' },
  },
  de: {
    order_paid_buyer: { subject: 'Danke für deine Bestellung', body: 'Wir haben deine Zahlung erhalten. Der Artikel wird jetzt versendet; auf der Bestellseite siehst du jeden Schritt.', button: 'Bestellung ansehen' },
    order_paid_seller: { subject: 'Du hast einen Artikel verkauft', body: 'Der Käufer hat bezahlt. Die Bestellseite zeigt, wie der Artikel zu ihm kommt; markiere ihn dort als versendet, sobald er unterwegs ist.', button: 'Bestellung ansehen' },
    order_sent_buyer: { subject: 'Deine Bestellung ist unterwegs', body: 'Deine Bestellung wurde als versendet markiert. Wenn sie ankommt, markiere sie auf der Bestellseite als erhalten.', button: 'Bestellung ansehen' },
    order_sent_seller: { subject: 'Bestellung als versendet markiert', body: 'Die Bestellung wurde als versendet markiert. Wir sagen dir Bescheid, wenn der Käufer sie erhalten hat.', button: 'Bestellung ansehen' },
    order_received_buyer: { subject: 'Deine Bestellung ist abgeschlossen', body: 'Deine Bestellung ist als erhalten markiert. Danke für deinen Einkauf.', button: 'Bestellung ansehen' },
    order_received_seller: { subject: 'Dein Verkauf ist abgeschlossen', body: 'Der Käufer hat den Artikel erhalten. Deine Auszahlung folgt.', button: 'Bestellung ansehen' },
  },
};

const FOOTER: Record<Language, { validity: string; ignore: string; greeting: (n: string) => string }> = {
  en: { validity: 'The order page shows where the order is and everything that happened to it.', ignore: 'Questions? Reply through the shop.', greeting: (n) => `Hi ${n},` },
  sv: { validity: 'Beställningssidan visar var beställningen är och allt som har hänt med den.', ignore: 'Frågor? Svara via butiken.', greeting: (n) => `Hej ${n},` },
  de: { validity: 'Die Bestellseite zeigt, wo die Bestellung steht und was bisher geschah.', ignore: 'Fragen? Antworte über den Shop.', greeting: (n) => `Hallo ${n},` },
};

/** The order texts of a language, in the shape of the other templates' texts. */
export function orderTexts(language: Language) {
  const footer = FOOTER[language];
  return Object.fromEntries(ORDER_TEMPLATES.map((t) => [t, { ...TEXTS[language][t], ...footer }])) as Record<OrderTemplate, OrderTexts & typeof footer>;
}

/** What an order notice names: the item (the order's item line) and, once sent, its tracking. */
export interface OrderAbout {
  item: string;
  tracking?: string;
  carrier?: string;
}

const tracked = (a: OrderAbout, word: string) => (a.tracking ? ` — ${word} ${a.tracking}${a.carrier ? ` (${a.carrier})` : ''}` : '');

const NAMED: Record<Language, Record<OrderTemplate, (a: OrderAbout) => string>> = {
  en: {
    order_paid_buyer: (a) => `Your order of ${a.item} is paid.`,
    order_paid_seller: (a) => `You have sold ${a.item}.`,
    order_sent_buyer: (a) => `Your order of ${a.item} is on its way${tracked(a, 'tracking')}.`,
    order_sent_seller: (a) => `You have marked ${a.item} sent${tracked(a, 'tracking')}.`,
    order_received_buyer: (a) => `Your order of ${a.item} is complete.`,
    order_received_seller: (a) => `The buyer has received ${a.item}.`,
  },
  sv: {
    order_paid_buyer: (a) => `Din beställning av ${a.item} är betald.`,
    order_paid_seller: (a) => `Du har sålt ${a.item}.`,
    order_sent_buyer: (a) => `Din beställning av ${a.item} är på väg${tracked(a, 'spårning')}.`,
    order_sent_seller: (a) => `Du har markerat ${a.item} som skickad${tracked(a, 'spårning')}.`,
    order_received_buyer: (a) => `Din beställning av ${a.item} är klar.`,
    order_received_seller: (a) => `Köparen har tagit emot ${a.item}.`,
  },
  de: {
    order_paid_buyer: (a) => `Deine Bestellung von ${a.item} ist bezahlt.`,
    order_paid_seller: (a) => `Du hast ${a.item} verkauft.`,
    order_sent_buyer: (a) => `Deine Bestellung von ${a.item} ist unterwegs${tracked(a, 'Sendungsnummer')}.`,
    order_sent_seller: (a) => `Du hast ${a.item} als versendet markiert${tracked(a, 'Sendungsnummer')}.`,
    order_received_buyer: (a) => `Deine Bestellung von ${a.item} ist abgeschlossen.`,
    order_received_seller: (a) => `Der Käufer hat ${a.item} erhalten.`,
  },
};

/** An order notice that names its item: the subject ends with it, the body opens with it (and the tracking). */
export function namedOrderNotice(language: string, template: OrderTemplate, about: OrderAbout): { subject: string; lead: string } {
  const lang: Language = language in NAMED ? (language as Language) : 'en';
  return { subject: `${TEXTS[lang][template].subject}: ${about.item}`, lead: NAMED[lang][template](about) };
}

/** What a message notice names: who wrote (a name, or the marketplace's support) and about what (the listing's title). */
export interface MessageAbout {
  sender?: string;
  support?: boolean;
  about?: string;
}

const MESSAGE_NAMED: Record<Language, { support: string; wrote: (who: string, about?: string) => string; newAbout: (about: string) => string }> = {
  en: { support: 'The shop’s support', wrote: (who, about) => (about ? `${who} wrote about ${about}` : `${who} wrote to you`), newAbout: (about) => `New message about ${about}` },
  sv: { support: 'Butikens kundtjänst', wrote: (who, about) => (about ? `${who} skrev om ${about}` : `${who} skrev till dig`), newAbout: (about) => `Nytt meddelande om ${about}` },
  de: { support: 'Der Kundenservice des Shops', wrote: (who, about) => (about ? `${who} hat zu ${about} geschrieben` : `${who} hat dir geschrieben`), newAbout: (about) => `Neue Nachricht zu ${about}` },
};

/** A message notice naming the sender and the listing or order ("Anna wrote about Matin table lamp, red"); undefined when there is nothing to name. */
export function namedMessageNotice(language: string, m: MessageAbout): { subject: string; lead: string } | undefined {
  const t = MESSAGE_NAMED[language in MESSAGE_NAMED ? (language as Language) : 'en'];
  const who = m.support ? t.support : m.sender;
  const line = who ? t.wrote(who, m.about) : m.about ? t.newAbout(m.about) : undefined;
  return line ? { subject: line, lead: `${line}.` } : undefined;
}
