/**
 * Texts of the newsletter sign-up (the footer's form, and the default wording of a page's
 * newsletter block), per language; merged into lib/messages.ts. The field and button say
 * "newsletter" because the footer sits on every page, below sign-in and sign-up forms that have an
 * email field and a button of their own: names that differ tell them apart (screen readers, tests).
 */
const en = {
  newsletter: {
    heading: 'Newsletter',
    text: 'New arrivals and shop news, about once a month. Unsubscribe with one click in any issue.',
    email: 'Email for the newsletter',
    button: 'Subscribe',
    done: 'Thank you! You are on the list; the next issue comes to your inbox.',
  },
};

export type NewsletterMessages = typeof en;

const sv: NewsletterMessages = {
  newsletter: {
    heading: 'Nyhetsbrev',
    text: 'Nyinkommet och nytt från butiken, ungefär en gång i månaden. Avsluta med ett klick i varje utskick.',
    email: 'E-post för nyhetsbrevet',
    button: 'Prenumerera',
    done: 'Tack! Du står på listan; nästa utskick kommer till din inkorg.',
  },
};

const de: NewsletterMessages = {
  newsletter: {
    heading: 'Newsletter',
    text: 'Neu eingetroffen und Neues aus dem Shop, etwa einmal im Monat. Abmelden mit einem Klick in jeder Ausgabe.',
    email: 'E-Mail für den Newsletter',
    button: 'Abonnieren',
    done: 'Danke! Du stehst auf der Liste; die nächste Ausgabe kommt in dein Postfach.',
  },
};

export const newsletter = { en, sv, de };
