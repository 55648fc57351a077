export type Locale = 'en' | 'de';
export const LOCALES: readonly Locale[] = ['en', 'de'];

export type MessageParams = Record<string, string | number | null>;

const en = {
  'error.transport': 'A temporary network error interrupted the connection to the model provider — try again.',
  'error.rate_limit': 'Rate limited by the model provider — try again in {retryAfterS}s.',
  'error.rate_limit.no_delay': 'Rate limited by the model provider — try again in a moment.',
  'error.quota_exceeded': 'The {provider} account has no quota or credit left — check its plan and billing.',
  'error.quota_exceeded.unknown_provider':
    "The model provider account has no quota or credit left — check its plan and billing.",
  'error.authentication': "Your {provider} key was rejected — check it in the server's provider settings.",
  'error.authentication.unknown_provider':
    "The model provider key was rejected — check it in the server's provider settings.",
  'error.authorization':
    "Your {provider} key may not use this model or feature — check its permissions in the server's provider settings.",
  'error.authorization.unknown_provider':
    "The model provider key may not use this model or feature — check its permissions in the server's provider settings.",
  'error.context_length': 'This conversation is too long — compact it or start a new chat.',
  'error.content_policy': 'The provider blocked this request (content policy).',
  'error.invalid_request': 'The model provider rejected this request as invalid.',
  'error.provider_internal': 'Temporary provider error — try again.',
  'error.unknown': 'Something unexpected went wrong while generating the reply.',
  'error.application_error': 'The reply failed because of an error on the server.',
  'error.tool_failed': 'The tool "{tool}" failed, so the reply could not be finished.',
  'error.run_rejected': 'The server refused to run this agent right now.',
  'error.interrupted': 'The server instance running this reply stopped; the reply was interrupted.',
  'error.service_unavailable': 'The server’s database was unavailable, so the reply could not be finished — try again in {retryAfterS}s.',
  'refusal.concurrency': 'This agent is already running {limit} replies; try again when one finishes.',
  'refusal.budget': 'Your daily token budget of {budget} for this agent is used up; it resets at midnight UTC.',
  'refusal.spend.day.user': 'Your daily budget of {amount} {currency} in this project is used up ({spent} spent); it resets at midnight UTC.',
  'refusal.spend.day.shared': 'The project’s daily budget of {amount} {currency} is used up ({spent} spent); it resets at midnight UTC.',
  'refusal.spend.month.user': 'Your monthly budget of {amount} {currency} in this project is used up ({spent} spent); it resets on the first of next month (UTC).',
  'refusal.spend.month.shared': 'The project’s monthly budget of {amount} {currency} is used up ({spent} spent); it resets on the first of next month (UTC).',
  'refusal.spend.day.user.agent': 'Your daily budget of {amount} {currency} for the agent “{agent}” is used up ({spent} spent); it resets at midnight UTC.',
  'refusal.spend.day.shared.agent': 'The daily budget of {amount} {currency} for the agent “{agent}” is used up ({spent} spent); it resets at midnight UTC.',
  'refusal.spend.month.user.agent': 'Your monthly budget of {amount} {currency} for the agent “{agent}” is used up ({spent} spent); it resets on the first of next month (UTC).',
  'refusal.spend.month.shared.agent': 'The monthly budget of {amount} {currency} for the agent “{agent}” is used up ({spent} spent); it resets on the first of next month (UTC).',
  'refusal.user_disabled': 'Your account has been disabled, so this message was not answered.',
  'retry.scheduled': 'Retrying in {delayS}s (attempt {attempt})…',
} as const satisfies Record<string, string>;

export type MessageKey = keyof typeof en;

// Sie-form throughout, as for any business application addressing its users.
const de: Record<MessageKey, string> = {
  'error.transport':
    'Ein vorübergehender Netzwerkfehler hat die Verbindung zum Modellanbieter unterbrochen – bitte versuchen Sie es erneut.',
  'error.rate_limit': 'Der Modellanbieter drosselt gerade die Anfragen – versuchen Sie es in {retryAfterS} s erneut.',
  'error.rate_limit.no_delay': 'Der Modellanbieter drosselt gerade die Anfragen – versuchen Sie es gleich noch einmal.',
  'error.quota_exceeded':
    'Das Kontingent oder Guthaben des {provider}-Kontos ist aufgebraucht – prüfen Sie Tarif und Abrechnung des Kontos.',
  'error.quota_exceeded.unknown_provider':
    'Das Kontingent oder Guthaben beim Modellanbieter ist aufgebraucht – prüfen Sie Tarif und Abrechnung des Kontos.',
  'error.authentication':
    'Ihr {provider}-Schlüssel wurde abgelehnt – prüfen Sie ihn in den Anbieter-Einstellungen des Servers.',
  'error.authentication.unknown_provider':
    'Der Schlüssel für den Modellanbieter wurde abgelehnt – prüfen Sie ihn in den Anbieter-Einstellungen des Servers.',
  'error.authorization':
    'Ihr {provider}-Schlüssel darf dieses Modell oder diese Funktion nicht nutzen – prüfen Sie seine Berechtigungen in den Anbieter-Einstellungen des Servers.',
  'error.authorization.unknown_provider':
    'Der Schlüssel für den Modellanbieter darf dieses Modell oder diese Funktion nicht nutzen – prüfen Sie seine Berechtigungen in den Anbieter-Einstellungen des Servers.',
  'error.context_length':
    'Diese Unterhaltung ist zu lang – fassen Sie sie zusammen oder beginnen Sie einen neuen Chat.',
  'error.content_policy': 'Der Anbieter hat diese Anfrage blockiert (Inhaltsrichtlinie).',
  'error.invalid_request': 'Der Modellanbieter hat diese Anfrage als ungültig abgelehnt.',
  'error.provider_internal': 'Vorübergehender Fehler beim Anbieter – bitte versuchen Sie es erneut.',
  'error.unknown': 'Beim Erzeugen der Antwort ist ein unerwarteter Fehler aufgetreten.',
  'error.application_error': 'Die Antwort ist wegen eines Fehlers auf dem Server fehlgeschlagen.',
  'error.tool_failed': 'Das Werkzeug „{tool}“ ist fehlgeschlagen, daher konnte die Antwort nicht fertiggestellt werden.',
  'error.run_rejected': 'Der Server hat es abgelehnt, diesen Agenten jetzt auszuführen.',
  'error.interrupted':
    'Die Serverinstanz, die diese Antwort erzeugt hat, wurde beendet; die Antwort wurde unterbrochen.',
  'error.service_unavailable':
    'Die Datenbank des Servers war nicht erreichbar, daher konnte die Antwort nicht fertiggestellt werden – bitte versuchen Sie es in {retryAfterS} s erneut.',
  'refusal.concurrency':
    'Dieser Agent erzeugt bereits {limit} Antworten; versuchen Sie es erneut, sobald eine davon fertig ist.',
  'refusal.budget':
    'Ihr tägliches Token-Budget von {budget} für diesen Agenten ist aufgebraucht; es wird um Mitternacht (UTC) zurückgesetzt.',
  'refusal.spend.day.user': 'Ihr Tagesbudget von {amount} {currency} in diesem Projekt ist aufgebraucht ({spent} ausgegeben); es wird um Mitternacht (UTC) zurückgesetzt.',
  'refusal.spend.day.shared': 'Das Tagesbudget des Projekts von {amount} {currency} ist aufgebraucht ({spent} ausgegeben); es wird um Mitternacht (UTC) zurückgesetzt.',
  'refusal.spend.month.user': 'Ihr Monatsbudget von {amount} {currency} in diesem Projekt ist aufgebraucht ({spent} ausgegeben); es wird am Ersten des nächsten Monats (UTC) zurückgesetzt.',
  'refusal.spend.month.shared': 'Das Monatsbudget des Projekts von {amount} {currency} ist aufgebraucht ({spent} ausgegeben); es wird am Ersten des nächsten Monats (UTC) zurückgesetzt.',
  'refusal.spend.day.user.agent': 'Ihr Tagesbudget von {amount} {currency} für den Agenten „{agent}“ ist aufgebraucht ({spent} ausgegeben); es wird um Mitternacht (UTC) zurückgesetzt.',
  'refusal.spend.day.shared.agent': 'Das Tagesbudget von {amount} {currency} für den Agenten „{agent}“ ist aufgebraucht ({spent} ausgegeben); es wird um Mitternacht (UTC) zurückgesetzt.',
  'refusal.spend.month.user.agent': 'Ihr Monatsbudget von {amount} {currency} für den Agenten „{agent}“ ist aufgebraucht ({spent} ausgegeben); es wird am Ersten des nächsten Monats (UTC) zurückgesetzt.',
  'refusal.spend.month.shared.agent': 'Das Monatsbudget von {amount} {currency} für den Agenten „{agent}“ ist aufgebraucht ({spent} ausgegeben); es wird am Ersten des nächsten Monats (UTC) zurückgesetzt.',
  'refusal.user_disabled': 'Ihr Konto wurde deaktiviert, daher wurde diese Nachricht nicht beantwortet.',
  'retry.scheduled': 'Neuer Versuch in {delayS} s (Versuch {attempt}) …',
};

export const MESSAGES: Readonly<Record<Locale, Readonly<Record<MessageKey, string>>>> = { en, de };

export function isLocale(value: unknown): value is Locale {
  return value === 'en' || value === 'de';
}

export function isMessageKey(value: unknown): value is MessageKey {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(en, value);
}

/**
 * The message for `key` in `locale` with `{name}` placeholders filled. Numbers are
 * formatted for the locale (7.5 → "7,5" in German); null renders as empty text; a
 * placeholder without a param stays visible as `{name}` so a missing param shows up
 * in review instead of silently vanishing.
 */
export function translate(locale: Locale, key: MessageKey, params?: MessageParams): string {
  const template = MESSAGES[locale][key];
  return template.replace(/\{(\w+)\}/g, (placeholder, name: string) => {
    if (params === undefined || !Object.prototype.hasOwnProperty.call(params, name)) return placeholder;
    const value = params[name];
    if (value === null) return '';
    if (typeof value === 'number') return new Intl.NumberFormat(locale, { maximumFractionDigits: 3 }).format(value);
    return value;
  });
}

/** The `{name}` placeholders a message uses, for checking that params and translations line up. */
export function placeholdersOf(template: string): string[] {
  return [...template.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
}

const PROVIDER_DISPLAY_NAMES: Record<string, string> = {
  openai: 'OpenAI',
  anthropic: 'Anthropic',
  ollama: 'Ollama',
  openrouter: 'OpenRouter',
  vllm: 'vLLM',
  lmstudio: 'LM Studio',
};

export function providerDisplayName(provider: string): string {
  return PROVIDER_DISPLAY_NAMES[provider.toLowerCase()] ?? provider;
}
