/**
 * The texts of the account emails, per language. A marketplace language without texts here falls
 * back to English; the links still carry the recipient's language, so the storefront answers in it.
 */
import { ORDER_TEMPLATES, orderTexts } from './order-templates.js';

export const EMAIL_TEMPLATES = ['email_confirmation', 'sign_in_link', 'password_reset', 'welcome', 'listing_offer', 'listing_denied', 'listing_published', 'message_notice', 'payout_failed', ...ORDER_TEMPLATES] as const;
export type EmailTemplate = (typeof EMAIL_TEMPLATES)[number];
/** Emails to the marketplace's team, not to users (plain text): the back office's invitation, and alerts (failed payouts) to `alert_email`. */
export const TEAM_TEMPLATES = ['operator_invitation', 'team_alert'] as const;
export type TeamTemplate = (typeof TEAM_TEMPLATES)[number];
/** The template name of team alerts. */
export const TEAM_ALERT_TEMPLATE = 'team_alert' satisfies TeamTemplate;

interface Texts {
  subject: string;
  greeting: (name: string) => string;
  body: string;
  button: string;
  validity: string;
  ignore: string;
}

type Catalog = Record<EmailTemplate, Texts> & { signature: (shop: string) => string; fallbackGreeting: string };

const en: Catalog = {
  ...orderTexts('en'),
  listing_offer: {
    subject: 'We have valued your listing',
    greeting: (n) => `Hi ${n},`,
    body: 'We have made an offer for your listing. Accept it, or answer with your own price.',
    button: 'See the offer',
    validity: 'The offer waits for your answer on the listing page.',
    ignore: 'Questions? Reply through the shop.',
  },
  listing_denied: {
    subject: 'Your listing was not approved',
    greeting: (n) => `Hi ${n},`,
    body: 'We looked at your listing and cannot put it on sale. The listing page says why.',
    button: 'See why',
    validity: 'The review note stays on the listing page.',
    ignore: 'Questions? Reply through the shop.',
  },
  payout_failed: {
    subject: 'Your payout could not reach your bank',
    greeting: (n) => `Hi ${n},`,
    body: 'Your bank refused a payout of your sales. Check your bank details on the payouts page; the money waits in your account and is sent again once they are right.',
    button: 'Fix your bank details',
    validity: 'The payouts page shows what is still needed.',
    ignore: 'Questions? Reply through the shop.',
  },
  listing_published: {
    subject: 'Your listing is on sale',
    greeting: (n) => `Hi ${n},`,
    body: 'Your listing has been approved and is now on sale.',
    button: 'See your listing',
    validity: 'You can change or close it from the listing page.',
    ignore: 'Questions? Reply through the shop.',
  },
  message_notice: {
    subject: 'You have a new message',
    greeting: (n) => `Hi ${n},`,
    body: 'Someone has written to you in the shop. Read the conversation and answer it there.',
    button: 'Read the message',
    validity: 'We send at most one such email per conversation every 15 minutes, and none for messages you have already read.',
    ignore: 'Answer on the conversation page; replies to this email are not read.',
  },
  email_confirmation: {
    subject: 'Confirm your email address',
    greeting: (n) => `Hi ${n},`,
    body: 'Please confirm that this is your email address.',
    button: 'Confirm email address',
    validity: 'The link works for 24 hours.',
    ignore: "If you did not create an account, you can ignore this email.",
  },
  sign_in_link: {
    subject: 'Your sign-in link',
    greeting: (n) => `Hi ${n},`,
    body: 'Use this link to sign in.',
    button: 'Sign in',
    validity: 'The link works once, for 15 minutes.',
    ignore: 'If you did not ask to sign in, you can ignore this email.',
  },
  password_reset: {
    subject: 'Reset your password',
    greeting: (n) => `Hi ${n},`,
    body: 'Use this link to choose a new password. Choosing one signs you out everywhere.',
    button: 'Choose a new password',
    validity: 'The link works for 1 hour.',
    ignore: 'If you did not ask for this, you can ignore this email; your password stays as it is.',
  },
  welcome: {
    subject: 'Welcome! Your account is ready',
    greeting: (n) => `Hi ${n},`,
    body: 'We have created an account for you. Use this link to sign in.',
    button: 'Sign in',
    validity: 'The link works once, for 7 days. Later you can always ask for a new sign-in link.',
    ignore: 'If you did not expect this, you can ignore this email.',
  },
  signature: (shop) => `— ${shop}`,
  fallbackGreeting: 'there',
};

const sv: Catalog = {
  ...orderTexts('sv'),
  listing_offer: {
    subject: 'Vi har värderat din annons',
    greeting: (n) => `Hej ${n},`,
    body: 'Vi har lämnat ett erbjudande på din annons. Acceptera det, eller svara med ditt eget pris.',
    button: 'Se erbjudandet',
    validity: 'Erbjudandet väntar på ditt svar på annonssidan.',
    ignore: 'Frågor? Svara via butiken.',
  },
  listing_denied: {
    subject: 'Din annons godkändes inte',
    greeting: (n) => `Hej ${n},`,
    body: 'Vi har tittat på din annons och kan inte lägga ut den till försäljning. Annonssidan berättar varför.',
    button: 'Se varför',
    validity: 'Granskningsnoten finns kvar på annonssidan.',
    ignore: 'Frågor? Svara via butiken.',
  },
  payout_failed: {
    subject: 'Din utbetalning nådde inte din bank',
    greeting: (n) => `Hej ${n},`,
    body: 'Din bank nekade en utbetalning av din försäljning. Kontrollera dina bankuppgifter på utbetalningssidan; pengarna väntar på ditt konto och skickas igen när uppgifterna stämmer.',
    button: 'Rätta dina bankuppgifter',
    validity: 'Utbetalningssidan visar vad som fortfarande behövs.',
    ignore: 'Frågor? Svara via butiken.',
  },
  listing_published: {
    subject: 'Din annons är till salu',
    greeting: (n) => `Hej ${n},`,
    body: 'Din annons har godkänts och är nu till salu.',
    button: 'Se din annons',
    validity: 'Du kan ändra eller stänga den från annonssidan.',
    ignore: 'Frågor? Svara via butiken.',
  },
  message_notice: {
    subject: 'Du har ett nytt meddelande',
    greeting: (n) => `Hej ${n},`,
    body: 'Någon har skrivit till dig i butiken. Läs konversationen och svara där.',
    button: 'Läs meddelandet',
    validity: 'Vi skickar högst ett sådant mejl per konversation var 15:e minut, och inget för meddelanden som du redan har läst.',
    ignore: 'Svara på konversationssidan; svar på det här mejlet läses inte.',
  },
  email_confirmation: {
    subject: 'Bekräfta din e-postadress',
    greeting: (n) => `Hej ${n},`,
    body: 'Bekräfta att det här är din e-postadress.',
    button: 'Bekräfta e-postadress',
    validity: 'Länken fungerar i 24 timmar.',
    ignore: 'Om du inte har skapat något konto kan du bortse från det här mejlet.',
  },
  sign_in_link: {
    subject: 'Din inloggningslänk',
    greeting: (n) => `Hej ${n},`,
    body: 'Använd den här länken för att logga in.',
    button: 'Logga in',
    validity: 'Länken fungerar en gång, i 15 minuter.',
    ignore: 'Om du inte har bett om att logga in kan du bortse från det här mejlet.',
  },
  password_reset: {
    subject: 'Återställ ditt lösenord',
    greeting: (n) => `Hej ${n},`,
    body: 'Använd den här länken för att välja ett nytt lösenord. Då loggas du ut överallt.',
    button: 'Välj nytt lösenord',
    validity: 'Länken fungerar i 1 timme.',
    ignore: 'Om du inte har bett om det här kan du bortse från mejlet; ditt lösenord ändras inte.',
  },
  welcome: {
    subject: 'Välkommen! Ditt konto är klart',
    greeting: (n) => `Hej ${n},`,
    body: 'Vi har skapat ett konto åt dig. Använd den här länken för att logga in.',
    button: 'Logga in',
    validity: 'Länken fungerar en gång, i 7 dagar. Senare kan du alltid be om en ny inloggningslänk.',
    ignore: 'Om du inte väntade dig det här kan du bortse från mejlet.',
  },
  signature: (shop) => `— ${shop}`,
  fallbackGreeting: 'där',
};

const de: Catalog = {
  ...orderTexts('de'),
  listing_offer: {
    subject: 'Wir haben dein Angebot bewertet',
    greeting: (n) => `Hallo ${n},`,
    body: 'Wir haben dir ein Angebot für deinen Artikel gemacht. Nimm es an oder nenne deinen eigenen Preis.',
    button: 'Angebot ansehen',
    validity: 'Das Angebot wartet auf der Artikelseite auf deine Antwort.',
    ignore: 'Fragen? Antworte über den Shop.',
  },
  listing_denied: {
    subject: 'Dein Artikel wurde nicht freigegeben',
    greeting: (n) => `Hallo ${n},`,
    body: 'Wir haben uns deinen Artikel angesehen und können ihn nicht anbieten. Auf der Artikelseite steht, warum.',
    button: 'Grund ansehen',
    validity: 'Der Hinweis bleibt auf der Artikelseite.',
    ignore: 'Fragen? Antworte über den Shop.',
  },
  payout_failed: {
    subject: 'Deine Auszahlung hat deine Bank nicht erreicht',
    greeting: (n) => `Hallo ${n},`,
    body: 'Deine Bank hat eine Auszahlung deiner Verkäufe abgelehnt. Prüfe deine Bankdaten auf der Auszahlungsseite; das Geld wartet auf deinem Konto und wird erneut gesendet, sobald sie stimmen.',
    button: 'Bankdaten korrigieren',
    validity: 'Die Auszahlungsseite zeigt, was noch fehlt.',
    ignore: 'Fragen? Antworte über den Shop.',
  },
  listing_published: {
    subject: 'Dein Artikel ist im Verkauf',
    greeting: (n) => `Hallo ${n},`,
    body: 'Dein Artikel wurde freigegeben und ist jetzt im Verkauf.',
    button: 'Artikel ansehen',
    validity: 'Du kannst ihn auf der Artikelseite ändern oder schließen.',
    ignore: 'Fragen? Antworte über den Shop.',
  },
  message_notice: {
    subject: 'Du hast eine neue Nachricht',
    greeting: (n) => `Hallo ${n},`,
    body: 'Jemand hat dir im Shop geschrieben. Lies das Gespräch und antworte dort.',
    button: 'Nachricht lesen',
    validity: 'Wir senden höchstens eine solche E-Mail pro Gespräch alle 15 Minuten und keine für Nachrichten, die du schon gelesen hast.',
    ignore: 'Antworte auf der Gesprächsseite; Antworten auf diese E-Mail werden nicht gelesen.',
  },
  email_confirmation: {
    subject: 'Bestätige deine E-Mail-Adresse',
    greeting: (n) => `Hallo ${n},`,
    body: 'Bitte bestätige, dass dies deine E-Mail-Adresse ist.',
    button: 'E-Mail-Adresse bestätigen',
    validity: 'Der Link gilt 24 Stunden.',
    ignore: 'Wenn du kein Konto angelegt hast, kannst du diese E-Mail ignorieren.',
  },
  sign_in_link: {
    subject: 'Dein Anmeldelink',
    greeting: (n) => `Hallo ${n},`,
    body: 'Mit diesem Link meldest du dich an.',
    button: 'Anmelden',
    validity: 'Der Link gilt einmal, 15 Minuten lang.',
    ignore: 'Wenn du dich nicht anmelden wolltest, kannst du diese E-Mail ignorieren.',
  },
  password_reset: {
    subject: 'Passwort zurücksetzen',
    greeting: (n) => `Hallo ${n},`,
    body: 'Mit diesem Link wählst du ein neues Passwort. Danach bist du überall abgemeldet.',
    button: 'Neues Passwort wählen',
    validity: 'Der Link gilt 1 Stunde.',
    ignore: 'Wenn du das nicht angefordert hast, kannst du diese E-Mail ignorieren; dein Passwort bleibt unverändert.',
  },
  welcome: {
    subject: 'Willkommen! Dein Konto ist bereit',
    greeting: (n) => `Hallo ${n},`,
    body: 'Wir haben ein Konto für dich angelegt. Mit diesem Link meldest du dich an.',
    button: 'Anmelden',
    validity: 'Der Link gilt einmal, 7 Tage lang. Später kannst du jederzeit einen neuen Anmeldelink anfordern.',
    ignore: 'Wenn du das nicht erwartet hast, kannst du diese E-Mail ignorieren.',
  },
  signature: (shop) => `— ${shop}`,
  fallbackGreeting: 'zusammen',
};

const CATALOGS: Record<string, Catalog> = { en, sv, de };

/** Texts for a language tag: exact, then its base language (`sv-FI` → `sv`), then English. */
export function textsFor(locale: string): Catalog {
  return CATALOGS[locale] ?? CATALOGS[locale.split('-')[0]!.toLowerCase()] ?? en;
}

