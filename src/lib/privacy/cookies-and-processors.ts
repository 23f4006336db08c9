/**
 * Every cookie and browser-storage entry the site and the engine set, every third party the browser
 * talks to, and every outside service the engine sends personal data to: ONE list. The cookie policy
 * and the privacy policy print their tables from it (src/components/privacy/), the consent dialog asks
 * only about the services marked `consent: true`, and tests/unit/cookies-and-processors.test.ts scans
 * the sources so a cookie or storage key added in code without an entry here fails the tests.
 *
 * Categories, and where consent is needed (ePrivacy art. 5(3), GDPR art. 6):
 * - strictly-necessary: the shop cannot do what the visitor asked without it (cart, login, checkout,
 *   the visitor's language and privacy choice). No consent.
 * - functional: set only when the visitor uses the feature it remembers (colour theme, guest wishlist):
 *   the visitor asked for it, so no consent either; nothing of it is set by default.
 * - third-party: code or cookies of another company in the visitor's browser. Needs consent unless it is
 *   strictly necessary for a service the visitor chose. Stripe.js loads only on the checkout, and only
 *   while card payment is the selected method (preselected when the shop offers it): the payment the
 *   shopper is making cannot happen without it, so it needs no consent. Google reCAPTCHA can guard the contact form (BOT_CHECK=recaptcha, the default
 *   when RECAPTCHA_SECRET is set), but the shop has a first-party check (ALTCHA, the default otherwise)
 *   that does the same job, so reCAPTCHA is not strictly necessary: it loads only after the visitor
 *   accepted it in the privacy settings (src/stores/consent.ts). Until then the form uses ALTCHA, which
 *   the engine also accepts when it runs reCAPTCHA (src/server/bot-check/check.ts).
 *
 * The list is read at build time (policy pages, the consent dialog's text); browser code imports only
 * consent-services.ts, so these texts never reach a page's JavaScript.
 */
import type { LocaleCode } from '../i18n/locales';

export type Localized = Readonly<Record<LocaleCode, string>>;

export type Category = 'strictly-necessary' | 'functional' | 'third-party';

/** Where an entry lives in the browser. */
export type StorageKind = 'cookie' | 'localStorage' | 'sessionStorage';

/** Who sets or receives it: this shop, or one of the services in PROCESSORS. */
export type Party = 'meshfront' | ProcessorId;

/** The pages an entry or service is used on (labels: locales/*.json `privacy.pages.*`). */
export type PageScope = 'all' | 'checkout' | 'card-checkout' | 'contact' | 'account' | 'admin' | 'wishlist';

/** One cookie or storage key. */
export interface StorageEntry {
  /** The cookie's name or the storage key, exactly as the code writes it. */
  name: string;
  storage: StorageKind;
  /** The same thing under another name and place, chosen by a setting (PUBLIC_SESSION_TOKEN_STORAGE). */
  alternative?: { name: string; storage: StorageKind };
  category: Category;
  /** Whether it may be set only after the visitor's consent. */
  consent: boolean;
  party: Party;
  pages: readonly PageScope[];
  lifetime: Localized;
  purpose: Localized;
}

export type ProcessorId = 'stripe' | 'google-recaptcha' | 'chainweb' | 'vies' | 'mail' | 'oauth';

/** One outside service that receives personal data from the browser or the engine. */
export interface Processor {
  id: ProcessorId;
  name: string;
  /** The company, or who runs it when the operator chooses (the mail server, the login providers). */
  who: Localized;
  /** Whether the visitor's browser talks to it directly (loads its code, opens its pages). */
  inBrowser: boolean;
  category: Category;
  consent: boolean;
  pages: readonly PageScope[];
  /** The setting that turns it on; it receives nothing while that is unset. */
  setting: string;
  data: Localized;
  purpose: Localized;
  privacyUrl?: string;
}

const YEAR = {
  en_US: '1 year',
  de_DE: '1 Jahr',
  es_ES: '1 año',
  fr_FR: '1 an',
  it_IT: '1 anno',
  pt_BR: '1 ano',
} as const satisfies Localized;

const UNTIL_DELETED = {
  en_US: 'until you delete it (browser settings)',
  de_DE: 'bis du ihn löschst (Browser-Einstellungen)',
  es_ES: 'hasta que lo borres (ajustes del navegador)',
  fr_FR: 'jusqu’à ce que vous le supprimiez (paramètres du navigateur)',
  it_IT: 'finché non lo elimini (impostazioni del browser)',
  pt_BR: 'até você apagá-lo (configurações do navegador)',
} as const satisfies Localized;

const TAB = {
  en_US: 'until the tab is closed',
  de_DE: 'bis der Tab geschlossen wird',
  es_ES: 'hasta cerrar la pestaña',
  fr_FR: 'jusqu’à la fermeture de l’onglet',
  it_IT: 'fino alla chiusura della scheda',
  pt_BR: 'até fechar a aba',
} as const satisfies Localized;

export const STORAGE_ENTRIES: readonly StorageEntry[] = [
  {
    name: 'woocommerce-session',
    storage: 'cookie',
    alternative: { name: 'meshfront:woocommerce-session', storage: 'localStorage' },
    category: 'strictly-necessary',
    consent: false,
    party: 'meshfront',
    pages: ['all'],
    lifetime: {
      en_US: '48 hours, renewed on each visit',
      de_DE: '48 Stunden, bei jedem Besuch erneuert',
      es_ES: '48 horas, renovada en cada visita',
      fr_FR: '48 heures, renouvelé à chaque visite',
      it_IT: '48 ore, rinnovato a ogni visita',
      pt_BR: '48 horas, renovado a cada visita',
    },
    purpose: {
      en_US: 'Your shopping session: keeps your cart and checkout between pages. Set when you first use the shop.',
      de_DE:
        'Deine Einkaufssitzung: hält Warenkorb und Kasse über die Seiten hinweg. Wird gesetzt, wenn du den Shop zum ersten Mal benutzt.',
      es_ES:
        'Tu sesión de compra: conserva el carrito y el pago entre páginas. Se crea cuando usas la tienda por primera vez.',
      fr_FR:
        'Votre session d’achat : conserve votre panier et votre commande d’une page à l’autre. Créé lors de votre première utilisation de la boutique.',
      it_IT:
        'La sessione di acquisto: mantiene carrello e checkout tra le pagine. Impostato al primo utilizzo del negozio.',
      pt_BR:
        'Sua sessão de compra: mantém o carrinho e o checkout entre as páginas. Criado quando você usa a loja pela primeira vez.',
    },
  },
  {
    name: 'meshfront-auth',
    storage: 'cookie',
    alternative: { name: 'meshfront:auth', storage: 'localStorage' },
    category: 'strictly-necessary',
    consent: false,
    party: 'meshfront',
    pages: ['all'],
    lifetime: {
      en_US: '5 minutes, renewed while you are logged in',
      de_DE: '5 Minuten, erneuert, solange du angemeldet bist',
      es_ES: '5 minutos, renovada mientras tengas la sesión iniciada',
      fr_FR: '5 minutes, renouvelé tant que vous êtes connecté',
      it_IT: '5 minuti, rinnovato finché sei connesso',
      pt_BR: '5 minutos, renovado enquanto você estiver conectado',
    },
    purpose: {
      en_US: 'Keeps you logged in to your account. Set only when you log in.',
      de_DE: 'Hält dich in deinem Kundenkonto angemeldet. Wird nur bei der Anmeldung gesetzt.',
      es_ES: 'Mantiene iniciada la sesión en tu cuenta. Solo se crea al iniciar sesión.',
      fr_FR: 'Vous garde connecté à votre compte. Créé uniquement lorsque vous vous connectez.',
      it_IT: 'Ti mantiene connesso al tuo account. Impostato solo quando accedi.',
      pt_BR: 'Mantém você conectado à sua conta. Criado apenas quando você faz login.',
    },
  },
  {
    name: 'meshfront-refresh',
    storage: 'cookie',
    alternative: { name: 'meshfront:refresh', storage: 'localStorage' },
    category: 'strictly-necessary',
    consent: false,
    party: 'meshfront',
    pages: ['all'],
    lifetime: {
      en_US: '30 days, or until you log out',
      de_DE: '30 Tage oder bis zur Abmeldung',
      es_ES: '30 días o hasta cerrar la sesión',
      fr_FR: '30 jours, ou jusqu’à la déconnexion',
      it_IT: '30 giorni o fino alla disconnessione',
      pt_BR: '30 dias ou até você sair',
    },
    purpose: {
      en_US: 'Renews your login so you do not have to enter your password on every visit. Set only when you log in.',
      de_DE:
        'Erneuert deine Anmeldung, damit du nicht bei jedem Besuch dein Passwort eingeben musst. Wird nur bei der Anmeldung gesetzt.',
      es_ES:
        'Renueva tu inicio de sesión para que no tengas que escribir la contraseña en cada visita. Solo se crea al iniciar sesión.',
      fr_FR:
        'Renouvelle votre connexion pour vous éviter de saisir votre mot de passe à chaque visite. Créé uniquement à la connexion.',
      it_IT: 'Rinnova l’accesso così non devi inserire la password a ogni visita. Impostato solo quando accedi.',
      pt_BR: 'Renova seu login para você não digitar a senha a cada visita. Criado apenas quando você faz login.',
    },
  },
  {
    name: 'locale',
    storage: 'cookie',
    category: 'strictly-necessary',
    consent: false,
    party: 'meshfront',
    pages: ['all'],
    lifetime: {
      en_US: 'until you close the browser; 1 year when you pick a language yourself',
      de_DE: 'bis du den Browser schließt; 1 Jahr, wenn du selbst eine Sprache wählst',
      es_ES: 'hasta cerrar el navegador; 1 año si eliges tú un idioma',
      fr_FR: 'jusqu’à la fermeture du navigateur ; 1 an si vous choisissez vous-même une langue',
      it_IT: 'fino alla chiusura del browser; 1 anno se scegli tu una lingua',
      pt_BR: 'até fechar o navegador; 1 ano se você escolher um idioma',
    },
    purpose: {
      en_US: 'Shows the shop in your language on every page.',
      de_DE: 'Zeigt den Shop auf jeder Seite in deiner Sprache.',
      es_ES: 'Muestra la tienda en tu idioma en todas las páginas.',
      fr_FR: 'Affiche la boutique dans votre langue sur chaque page.',
      it_IT: 'Mostra il negozio nella tua lingua su ogni pagina.',
      pt_BR: 'Mostra a loja no seu idioma em todas as páginas.',
    },
  },
  {
    name: 'meshfront-reload-count',
    storage: 'cookie',
    category: 'strictly-necessary',
    consent: false,
    party: 'meshfront',
    pages: ['all'],
    lifetime: YEAR,
    purpose: {
      en_US: 'Set only after the shop could not restore your session: prevents the page from reloading over and over.',
      de_DE:
        'Wird nur gesetzt, wenn der Shop deine Sitzung nicht wiederherstellen konnte: verhindert, dass die Seite immer wieder neu lädt.',
      es_ES: 'Solo se crea si la tienda no pudo restaurar tu sesión: evita que la página se recargue una y otra vez.',
      fr_FR:
        'Créé uniquement si la boutique n’a pas pu rétablir votre session : empêche la page de se recharger en boucle.',
      it_IT:
        'Impostato solo se il negozio non ha potuto ripristinare la sessione: evita che la pagina si ricarichi di continuo.',
      pt_BR: 'Criado apenas se a loja não conseguiu restaurar sua sessão: evita que a página recarregue sem parar.',
    },
  },
  {
    name: 'meshfront_admin',
    storage: 'cookie',
    category: 'strictly-necessary',
    consent: false,
    party: 'meshfront',
    pages: ['admin'],
    lifetime: {
      en_US: '12 hours',
      de_DE: '12 Stunden',
      es_ES: '12 horas',
      fr_FR: '12 heures',
      it_IT: '12 ore',
      pt_BR: '12 horas',
    },
    purpose: {
      en_US: 'Keeps shop staff logged in to the shop administration. Never set for shoppers.',
      de_DE: 'Hält Shop-Mitarbeitende in der Shop-Verwaltung angemeldet. Wird für Kundinnen und Kunden nie gesetzt.',
      es_ES: 'Mantiene la sesión del personal en la administración de la tienda. Nunca se crea para los clientes.',
      fr_FR: 'Garde le personnel connecté à l’administration de la boutique. Jamais créé pour les clients.',
      it_IT: 'Mantiene lo staff connesso all’amministrazione del negozio. Mai impostato per i clienti.',
      pt_BR: 'Mantém a equipe conectada à administração da loja. Nunca é criado para clientes.',
    },
  },
  {
    name: 'meshfront:consent',
    storage: 'localStorage',
    category: 'strictly-necessary',
    consent: false,
    party: 'meshfront',
    pages: ['all'],
    lifetime: YEAR,
    purpose: {
      en_US: 'Remembers your choice in the privacy settings, so the shop does not ask again.',
      de_DE: 'Merkt sich deine Wahl in den Datenschutzeinstellungen, damit der Shop nicht erneut fragt.',
      es_ES: 'Recuerda tu elección en los ajustes de privacidad para no volver a preguntar.',
      fr_FR: 'Mémorise votre choix dans les paramètres de confidentialité pour ne pas redemander.',
      it_IT: 'Ricorda la tua scelta nelle impostazioni sulla privacy, così il negozio non lo chiede di nuovo.',
      pt_BR: 'Guarda sua escolha nas configurações de privacidade para a loja não perguntar de novo.',
    },
  },
  {
    name: 'meshfront:viewer',
    storage: 'localStorage',
    category: 'strictly-necessary',
    consent: false,
    party: 'meshfront',
    pages: ['all'],
    lifetime: {
      en_US: 'until you log out',
      de_DE: 'bis zur Abmeldung',
      es_ES: 'hasta cerrar la sesión',
      fr_FR: 'jusqu’à la déconnexion',
      it_IT: 'fino alla disconnessione',
      pt_BR: 'até você sair',
    },
    purpose: {
      en_US: 'Your name and e-mail address for the header while you are logged in. Set only when you log in.',
      de_DE: 'Dein Name und deine E-Mail-Adresse für die Kopfzeile, solange du angemeldet bist. Nur bei Anmeldung.',
      es_ES: 'Tu nombre y correo para la cabecera mientras tengas la sesión iniciada. Solo al iniciar sesión.',
      fr_FR: 'Votre nom et votre e-mail pour l’en-tête tant que vous êtes connecté. Uniquement à la connexion.',
      it_IT: 'Il tuo nome e la tua e-mail per l’intestazione finché sei connesso. Solo quando accedi.',
      pt_BR: 'Seu nome e e-mail para o cabeçalho enquanto estiver conectado. Apenas ao fazer login.',
    },
  },
  {
    name: 'meshfront-own-prices',
    storage: 'localStorage',
    category: 'strictly-necessary',
    consent: false,
    party: 'meshfront',
    pages: ['all'],
    lifetime: UNTIL_DELETED,
    purpose: {
      en_US: 'Notes that your prices differ from the listed ones (VAT of your country), so pages show yours at once.',
      de_DE:
        'Merkt, dass deine Preise von den angezeigten abweichen (Mehrwertsteuer deines Landes), damit Seiten gleich deine Preise zeigen.',
      es_ES:
        'Indica que tus precios difieren de los publicados (IVA de tu país) para mostrar los tuyos desde el principio.',
      fr_FR:
        'Indique que vos prix diffèrent des prix affichés (TVA de votre pays) pour afficher directement les vôtres.',
      it_IT: 'Indica che i tuoi prezzi differiscono da quelli esposti (IVA del tuo paese), per mostrare subito i tuoi.',
      pt_BR: 'Indica que seus preços diferem dos exibidos (imposto do seu país) para mostrar os seus de imediato.',
    },
  },
  {
    name: 'meshfront:theme',
    storage: 'localStorage',
    category: 'functional',
    consent: false,
    party: 'meshfront',
    pages: ['all'],
    lifetime: UNTIL_DELETED,
    purpose: {
      en_US: 'The colour theme you chose. Set only when you switch the theme.',
      de_DE: 'Das von dir gewählte Farbschema. Wird nur gesetzt, wenn du es wechselst.',
      es_ES: 'El tema de color que elegiste. Solo se crea si cambias el tema.',
      fr_FR: 'Le thème de couleurs choisi. Créé uniquement si vous changez de thème.',
      it_IT: 'Il tema di colori scelto. Impostato solo se cambi tema.',
      pt_BR: 'O tema de cores escolhido. Criado apenas se você trocar o tema.',
    },
  },
  {
    name: 'meshfront:wishlist',
    storage: 'localStorage',
    category: 'functional',
    consent: false,
    party: 'meshfront',
    pages: ['wishlist'],
    lifetime: UNTIL_DELETED,
    purpose: {
      en_US: 'Your wishlist while you are not logged in. Set only when you add a product to it.',
      de_DE: 'Deine Wunschliste, solange du nicht angemeldet bist. Nur wenn du ein Produkt hinzufügst.',
      es_ES: 'Tu lista de deseos sin iniciar sesión. Solo se crea al añadir un producto.',
      fr_FR: 'Votre liste d’envies sans être connecté. Créé uniquement quand vous y ajoutez un produit.',
      it_IT: 'La tua lista dei desideri senza accesso. Impostato solo quando aggiungi un prodotto.',
      pt_BR: 'Sua lista de desejos sem login. Criado apenas quando você adiciona um produto.',
    },
  },
  {
    name: 'meshfront:pending-card-checkout',
    storage: 'sessionStorage',
    category: 'strictly-necessary',
    consent: false,
    party: 'meshfront',
    pages: ['card-checkout'],
    lifetime: TAB,
    purpose: {
      en_US: 'Finishes your order when your bank sends you back after confirming a card payment.',
      de_DE:
        'Schließt deine Bestellung ab, wenn deine Bank dich nach der Bestätigung einer Kartenzahlung zurückschickt.',
      es_ES: 'Completa tu pedido cuando tu banco te devuelve tras confirmar un pago con tarjeta.',
      fr_FR: 'Termine votre commande lorsque votre banque vous renvoie après la confirmation d’un paiement par carte.',
      it_IT: 'Completa l’ordine quando la banca ti rimanda indietro dopo la conferma di un pagamento con carta.',
      pt_BR: 'Conclui seu pedido quando o banco devolve você após confirmar um pagamento com cartão.',
    },
  },
  {
    name: 'meshfront:oauth-provider',
    storage: 'sessionStorage',
    category: 'strictly-necessary',
    consent: false,
    party: 'meshfront',
    pages: ['account'],
    lifetime: TAB,
    purpose: {
      en_US: 'Which login provider you chose, to finish the login when it sends you back.',
      de_DE: 'Welchen Anmeldedienst du gewählt hast, um die Anmeldung nach der Rückkehr abzuschließen.',
      es_ES: 'Qué proveedor de inicio de sesión elegiste, para completar el acceso a tu regreso.',
      fr_FR: 'Le fournisseur de connexion choisi, pour terminer la connexion à votre retour.',
      it_IT: 'Quale servizio di accesso hai scelto, per completare l’accesso al ritorno.',
      pt_BR: 'Qual provedor de login você escolheu, para concluir o login quando voltar.',
    },
  },
  {
    name: 'meshfront:session-reset-at',
    storage: 'sessionStorage',
    category: 'strictly-necessary',
    consent: false,
    party: 'meshfront',
    pages: ['all'],
    lifetime: TAB,
    purpose: {
      en_US: 'Set only after your session had to be restarted: prevents the page from reloading over and over.',
      de_DE: 'Nur nach einem Neustart deiner Sitzung: verhindert, dass die Seite immer wieder neu lädt.',
      es_ES: 'Solo tras reiniciar tu sesión: evita que la página se recargue una y otra vez.',
      fr_FR: 'Uniquement après un redémarrage de votre session : empêche la page de se recharger en boucle.',
      it_IT: 'Solo dopo il riavvio della sessione: evita che la pagina si ricarichi di continuo.',
      pt_BR: 'Apenas após reiniciar sua sessão: evita que a página recarregue sem parar.',
    },
  },
  {
    name: 'meshfront:chunk-reload-at',
    storage: 'sessionStorage',
    category: 'strictly-necessary',
    consent: false,
    party: 'meshfront',
    pages: ['all'],
    lifetime: TAB,
    purpose: {
      en_US: 'Set only after a site update: loads the new version once instead of over and over.',
      de_DE: 'Nur nach einer Aktualisierung der Website: lädt die neue Version einmal statt immer wieder.',
      es_ES: 'Solo tras una actualización del sitio: carga la nueva versión una vez en lugar de repetidamente.',
      fr_FR: 'Uniquement après une mise à jour du site : charge la nouvelle version une fois, pas en boucle.',
      it_IT: 'Solo dopo un aggiornamento del sito: carica la nuova versione una volta sola.',
      pt_BR: 'Apenas após uma atualização do site: carrega a nova versão uma vez, não repetidamente.',
    },
  },
  {
    name: '__stripe_mid, __stripe_sid',
    storage: 'cookie',
    category: 'third-party',
    consent: false,
    party: 'stripe',
    pages: ['card-checkout'],
    lifetime: {
      en_US: '1 year / 30 minutes',
      de_DE: '1 Jahr / 30 Minuten',
      es_ES: '1 año / 30 minutos',
      fr_FR: '1 an / 30 minutes',
      it_IT: '1 anno / 30 minuti',
      pt_BR: '1 ano / 30 minutos',
    },
    purpose: {
      en_US:
        'Set by Stripe when you pay by card: fraud prevention for your payment. Needed for the card payment you chose, so not asked for.',
      de_DE:
        'Von Stripe bei Kartenzahlung gesetzt: Betrugsschutz für deine Zahlung. Für die gewählte Kartenzahlung nötig, daher ohne Nachfrage.',
      es_ES:
        'Las crea Stripe al pagar con tarjeta: prevención del fraude en tu pago. Necesarias para el pago con tarjeta elegido, por eso no se pregunta.',
      fr_FR:
        'Créés par Stripe lors d’un paiement par carte : prévention de la fraude. Nécessaires au paiement par carte choisi, donc sans demande.',
      it_IT:
        'Impostati da Stripe quando paghi con carta: prevenzione delle frodi. Necessari per il pagamento con carta scelto, quindi senza richiesta.',
      pt_BR:
        'Criados pela Stripe ao pagar com cartão: prevenção de fraude. Necessários para o pagamento com cartão escolhido, por isso sem pedido.',
    },
  },
  {
    name: '_GRECAPTCHA, rc::a, rc::b, rc::c',
    storage: 'cookie',
    category: 'third-party',
    consent: true,
    party: 'google-recaptcha',
    pages: ['contact'],
    lifetime: {
      en_US: '6 months / until the tab is closed',
      de_DE: '6 Monate / bis der Tab geschlossen wird',
      es_ES: '6 meses / hasta cerrar la pestaña',
      fr_FR: '6 mois / jusqu’à la fermeture de l’onglet',
      it_IT: '6 mesi / fino alla chiusura della scheda',
      pt_BR: '6 meses / até fechar a aba',
    },
    purpose: {
      en_US:
        'Set by Google reCAPTCHA on google.com when the contact form uses it: tells people from bots. Only after you accept it in the privacy settings.',
      de_DE:
        'Von Google reCAPTCHA auf google.com gesetzt, wenn das Kontaktformular es nutzt: unterscheidet Menschen von Bots. Nur nach deiner Zustimmung in den Datenschutzeinstellungen.',
      es_ES:
        'Los crea Google reCAPTCHA en google.com cuando el formulario de contacto lo usa: distingue personas de bots. Solo si lo aceptas en los ajustes de privacidad.',
      fr_FR:
        'Créés par Google reCAPTCHA sur google.com lorsque le formulaire de contact l’utilise : distingue les personnes des robots. Uniquement après votre accord dans les paramètres de confidentialité.',
      it_IT:
        'Impostati da Google reCAPTCHA su google.com quando il modulo di contatto lo usa: distingue le persone dai bot. Solo dopo il tuo consenso nelle impostazioni sulla privacy.',
      pt_BR:
        'Criados pelo Google reCAPTCHA em google.com quando o formulário de contato o usa: distingue pessoas de robôs. Apenas depois que você aceitar nas configurações de privacidade.',
    },
  },
];

export const PROCESSORS: readonly Processor[] = [
  {
    id: 'stripe',
    name: 'Stripe',
    who: {
      en_US: 'Stripe Payments Europe Ltd., Ireland',
      de_DE: 'Stripe Payments Europe Ltd., Irland',
      es_ES: 'Stripe Payments Europe Ltd., Irlanda',
      fr_FR: 'Stripe Payments Europe Ltd., Irlande',
      it_IT: 'Stripe Payments Europe Ltd., Irlanda',
      pt_BR: 'Stripe Payments Europe Ltd., Irlanda',
    },
    inBrowser: true,
    category: 'third-party',
    consent: false,
    pages: ['card-checkout'],
    setting: 'STRIPE_SECRET_KEY',
    data: {
      en_US: 'Card details (entered in Stripe’s own fields), name, e-mail, phone, amount, device and network data',
      de_DE:
        'Kartendaten (in Stripes eigenen Feldern eingegeben), Name, E-Mail, Telefon, Betrag, Geräte- und Netzdaten',
      es_ES:
        'Datos de la tarjeta (en los campos de Stripe), nombre, correo, teléfono, importe, datos del dispositivo y de red',
      fr_FR:
        'Données de carte (saisies dans les champs de Stripe), nom, e-mail, téléphone, montant, données d’appareil et de réseau',
      it_IT: 'Dati della carta (nei campi di Stripe), nome, e-mail, telefono, importo, dati del dispositivo e di rete',
      pt_BR: 'Dados do cartão (nos campos da Stripe), nome, e-mail, telefone, valor, dados do dispositivo e da rede',
    },
    purpose: {
      en_US:
        'Taking your card payment, refunds and fraud prevention. Its script loads only on the checkout, for card payment.',
      de_DE: 'Kartenzahlung, Erstattungen und Betrugsschutz. Das Skript lädt nur an der Kasse bei Kartenzahlung.',
      es_ES: 'Cobro con tarjeta, reembolsos y prevención del fraude. Su script solo se carga en el pago con tarjeta.',
      fr_FR:
        'Paiement par carte, remboursements et prévention de la fraude. Son script ne se charge qu’au paiement par carte, sur la page de commande.',
      it_IT:
        'Pagamento con carta, rimborsi e prevenzione delle frodi. Lo script si carica solo nel checkout, per il pagamento con carta.',
      pt_BR:
        'Pagamento com cartão, reembolsos e prevenção de fraude. O script só carrega no checkout, para pagamento com cartão.',
    },
    privacyUrl: 'https://stripe.com/privacy',
  },
  {
    id: 'google-recaptcha',
    name: 'Google reCAPTCHA',
    who: {
      en_US: 'Google Ireland Ltd., Ireland',
      de_DE: 'Google Ireland Ltd., Irland',
      es_ES: 'Google Ireland Ltd., Irlanda',
      fr_FR: 'Google Ireland Ltd., Irlande',
      it_IT: 'Google Ireland Ltd., Irlanda',
      pt_BR: 'Google Ireland Ltd., Irlanda',
    },
    inBrowser: true,
    category: 'third-party',
    consent: true,
    pages: ['contact'],
    setting: 'RECAPTCHA_SECRET',
    data: {
      en_US: 'IP address, browser and device data, how you use the page',
      de_DE: 'IP-Adresse, Browser- und Gerätedaten, wie du die Seite nutzt',
      es_ES: 'Dirección IP, datos del navegador y del dispositivo, cómo usas la página',
      fr_FR: 'Adresse IP, données du navigateur et de l’appareil, votre utilisation de la page',
      it_IT: 'Indirizzo IP, dati del browser e del dispositivo, come usi la pagina',
      pt_BR: 'Endereço IP, dados do navegador e do dispositivo, como você usa a página',
    },
    purpose: {
      en_US:
        'Protects the contact form from spam. Only with your consent; without it the form uses our own check, with no third party.',
      de_DE:
        'Schützt das Kontaktformular vor Spam. Nur mit deiner Zustimmung; ohne sie nutzt das Formular unsere eigene Prüfung, ohne Drittanbieter.',
      es_ES:
        'Protege el formulario de contacto del spam. Solo con tu consentimiento; sin él, el formulario usa nuestra propia comprobación, sin terceros.',
      fr_FR:
        'Protège le formulaire de contact du spam. Uniquement avec votre accord ; sans lui, le formulaire utilise notre propre vérification, sans tiers.',
      it_IT:
        'Protegge il modulo di contatto dallo spam. Solo con il tuo consenso; senza, il modulo usa il nostro controllo, senza terze parti.',
      pt_BR:
        'Protege o formulário de contato contra spam. Apenas com seu consentimento; sem ele, o formulário usa nossa própria verificação, sem terceiros.',
    },
    privacyUrl: 'https://policies.google.com/privacy',
  },
  {
    id: 'chainweb',
    name: 'Kadena Chainweb',
    who: {
      en_US: 'The operator of the Kadena node the shop asks (by default Kadena’s public node)',
      de_DE: 'Betreiber des Kadena-Knotens, den der Shop abfragt (standardmäßig der öffentliche Knoten von Kadena)',
      es_ES: 'El operador del nodo de Kadena que consulta la tienda (por defecto, el nodo público de Kadena)',
      fr_FR: 'L’opérateur du nœud Kadena interrogé par la boutique (par défaut le nœud public de Kadena)',
      it_IT: 'Il gestore del nodo Kadena interrogato dal negozio (di default il nodo pubblico di Kadena)',
      pt_BR: 'O operador do nó Kadena consultado pela loja (por padrão, o nó público da Kadena)',
    },
    inBrowser: false,
    category: 'strictly-necessary',
    consent: false,
    pages: ['checkout'],
    setting: 'KDA_EUR_RATE',
    data: {
      en_US: 'The payment account of your order and the amount due (public on the blockchain)',
      de_DE: 'Das Zahlungskonto deiner Bestellung und der fällige Betrag (öffentlich auf der Blockchain)',
      es_ES: 'La cuenta de pago de tu pedido y el importe (públicos en la cadena de bloques)',
      fr_FR: 'Le compte de paiement de votre commande et le montant dû (publics sur la blockchain)',
      it_IT: 'Il conto di pagamento del tuo ordine e l’importo dovuto (pubblici sulla blockchain)',
      pt_BR: 'A conta de pagamento do seu pedido e o valor devido (públicos na blockchain)',
    },
    purpose: {
      en_US: 'Checking that your KDA payment arrived. Only when you pay with KDA.',
      de_DE: 'Prüfen, ob deine KDA-Zahlung eingegangen ist. Nur bei Zahlung mit KDA.',
      es_ES: 'Comprobar que llegó tu pago en KDA. Solo si pagas con KDA.',
      fr_FR: 'Vérifier que votre paiement en KDA est arrivé. Uniquement si vous payez en KDA.',
      it_IT: 'Verificare che il pagamento in KDA sia arrivato. Solo se paghi in KDA.',
      pt_BR: 'Verificar se seu pagamento em KDA chegou. Apenas se você pagar com KDA.',
    },
  },
  {
    id: 'vies',
    name: 'VIES',
    who: {
      en_US: 'European Commission',
      de_DE: 'Europäische Kommission',
      es_ES: 'Comisión Europea',
      fr_FR: 'Commission européenne',
      it_IT: 'Commissione europea',
      pt_BR: 'Comissão Europeia',
    },
    inBrowser: false,
    category: 'strictly-necessary',
    consent: false,
    pages: ['checkout'],
    setting: 'VIES_URL',
    data: {
      en_US: 'The VAT ID you enter as a business customer',
      de_DE: 'Die USt-IdNr., die du als Geschäftskunde angibst',
      es_ES: 'El NIF-IVA que indicas como cliente empresarial',
      fr_FR: 'Le numéro de TVA que vous indiquez en tant que client professionnel',
      it_IT: 'La partita IVA che inserisci come cliente business',
      pt_BR: 'O número de IVA que você informa como cliente empresarial',
    },
    purpose: {
      en_US: 'Confirming the VAT ID for a reverse-charge invoice, as EU VAT law requires.',
      de_DE:
        'Bestätigung der USt-IdNr. für eine Rechnung im Reverse-Charge-Verfahren, wie das EU-Mehrwertsteuerrecht verlangt.',
      es_ES:
        'Confirmar el NIF-IVA para una factura con inversión del sujeto pasivo, como exige la normativa del IVA de la UE.',
      fr_FR:
        'Confirmer le numéro de TVA pour une facture en autoliquidation, comme l’exige le droit européen de la TVA.',
      it_IT:
        'Confermare la partita IVA per una fattura in inversione contabile, come richiesto dalla normativa IVA UE.',
      pt_BR:
        'Confirmar o número de IVA para uma fatura com inversão do sujeito passivo, como exige a lei de IVA da UE.',
    },
  },
  {
    id: 'mail',
    name: 'E-mail',
    who: {
      en_US: 'Our e-mail provider',
      de_DE: 'Unser E-Mail-Anbieter',
      es_ES: 'Nuestro proveedor de correo',
      fr_FR: 'Notre fournisseur d’e-mail',
      it_IT: 'Il nostro fornitore di posta elettronica',
      pt_BR: 'Nosso provedor de e-mail',
    },
    inBrowser: false,
    category: 'strictly-necessary',
    consent: false,
    pages: ['all'],
    setting: 'SMTP_URL',
    data: {
      en_US:
        'Name, e-mail address and the contents of each mail (orders, account, newsletter, your messages to support)',
      de_DE:
        'Name, E-Mail-Adresse und Inhalt jeder Mail (Bestellungen, Konto, Newsletter, deine Nachrichten an den Support)',
      es_ES: 'Nombre, correo y contenido de cada mensaje (pedidos, cuenta, boletín, tus mensajes al soporte)',
      fr_FR: 'Nom, adresse e-mail et contenu de chaque e-mail (commandes, compte, newsletter, vos messages au support)',
      it_IT:
        'Nome, indirizzo e-mail e contenuto di ogni e-mail (ordini, account, newsletter, i tuoi messaggi al supporto)',
      pt_BR: 'Nome, e-mail e conteúdo de cada mensagem (pedidos, conta, newsletter, suas mensagens ao suporte)',
    },
    purpose: {
      en_US: 'Delivering the e-mails you asked for or that your order needs.',
      de_DE: 'Zustellung der E-Mails, die du angefordert hast oder die deine Bestellung braucht.',
      es_ES: 'Entregar los correos que pediste o que necesita tu pedido.',
      fr_FR: 'Envoyer les e-mails que vous avez demandés ou que votre commande nécessite.',
      it_IT: 'Consegnare le e-mail che hai richiesto o che servono al tuo ordine.',
      pt_BR: 'Entregar os e-mails que você pediu ou que seu pedido exige.',
    },
  },
  {
    id: 'oauth',
    name: 'Login providers',
    who: {
      en_US: 'The provider you choose to log in with',
      de_DE: 'Der Anbieter, mit dem du dich anmeldest',
      es_ES: 'El proveedor con el que elijas iniciar sesión',
      fr_FR: 'Le fournisseur avec lequel vous choisissez de vous connecter',
      it_IT: 'Il servizio con cui scegli di accedere',
      pt_BR: 'O provedor com que você escolhe fazer login',
    },
    inBrowser: true,
    category: 'third-party',
    consent: false,
    pages: ['account'],
    setting: 'OAUTH_PROVIDERS',
    data: {
      en_US: 'That you log in to this shop; we receive your name and e-mail address from the provider',
      de_DE: 'Dass du dich bei diesem Shop anmeldest; wir erhalten deinen Namen und deine E-Mail-Adresse vom Anbieter',
      es_ES: 'Que inicias sesión en esta tienda; recibimos del proveedor tu nombre y correo',
      fr_FR: 'Que vous vous connectez à cette boutique ; nous recevons votre nom et votre e-mail du fournisseur',
      it_IT: 'Che accedi a questo negozio; riceviamo dal servizio il tuo nome e la tua e-mail',
      pt_BR: 'Que você faz login nesta loja; recebemos do provedor seu nome e e-mail',
    },
    purpose: {
      en_US: 'Logging you in without a password. Only when you click a provider’s button.',
      de_DE: 'Anmeldung ohne Passwort. Nur wenn du auf die Schaltfläche eines Anbieters klickst.',
      es_ES: 'Iniciar sesión sin contraseña. Solo si pulsas el botón de un proveedor.',
      fr_FR: 'Vous connecter sans mot de passe. Uniquement si vous cliquez sur le bouton d’un fournisseur.',
      it_IT: 'Accedere senza password. Solo se fai clic sul pulsante di un servizio.',
      pt_BR: 'Fazer login sem senha. Apenas se você clicar no botão de um provedor.',
    },
  },
];

/** Every cookie or storage name the entry stands for (names joined with ", " are listed apart). */
export function entryNames(entry: StorageEntry): string[] {
  const names = entry.name.split(',').map((n) => n.trim());
  if (entry.alternative) names.push(entry.alternative.name);
  return names;
}
