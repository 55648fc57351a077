import type { ErrorReason } from '@parley/client';
import { createContext, useContext } from 'react';

// The chat's own words in English and German. Error cards are keyed by the failure's `reason`
// (the affordance depends on it); the server's localized `message` goes under the details.

export type Locale = 'en' | 'de';

export function localeOf(tag: string | null | undefined): Locale {
  return tag?.toLowerCase().startsWith('de') ? 'de' : 'en';
}

interface ErrorCopy {
  title: string;
  advice: string;
}

type Affordance = 'retry' | 'countdown' | 'newChat' | 'operator' | 'edit' | 'details';

/** What each reason lets the user do, as docs/errors.md suggests. */
export const ERROR_AFFORDANCE: Record<ErrorReason, Affordance> = {
  RATE_LIMIT: 'countdown',
  PROVIDER_INTERNAL: 'retry',
  TRANSPORT: 'retry',
  QUOTA_EXCEEDED: 'operator',
  AUTHENTICATION: 'operator',
  AUTHORIZATION: 'operator',
  CONTEXT_LENGTH: 'newChat',
  CONTENT_POLICY: 'edit',
  INVALID_REQUEST: 'details',
  UNKNOWN: 'details',
  APPLICATION_ERROR: 'details',
};

const en = {
  errors: {
    RATE_LIMIT: { title: 'Rate limited', advice: 'The model provider asked us to slow down.' },
    PROVIDER_INTERNAL: { title: 'Temporary provider error', advice: 'The model provider had a problem. Try again.' },
    TRANSPORT: { title: 'Connection to the provider interrupted', advice: 'A temporary network error interrupted the reply. Try again.' },
    QUOTA_EXCEEDED: { title: 'No quota left', advice: 'The provider account has no quota or credit left. Please contact the operator of this service.' },
    AUTHENTICATION: { title: 'Provider key rejected', advice: 'The provider rejected this service’s key. Please contact the operator of this service.' },
    AUTHORIZATION: { title: 'Model not allowed', advice: 'This service’s key may not use this model. Please contact the operator of this service.' },
    CONTEXT_LENGTH: { title: 'Conversation too long', advice: 'This conversation no longer fits the model. Start a new chat.' },
    CONTENT_POLICY: { title: 'Blocked by content policy', advice: 'The provider blocked this request. Rephrase your message and send it again.' },
    INVALID_REQUEST: { title: 'Request rejected', advice: 'The model provider rejected this request as invalid.' },
    UNKNOWN: { title: 'Something went wrong', advice: 'Something unexpected went wrong.' },
    APPLICATION_ERROR: { title: 'Server error', advice: 'The reply failed because of an error on the server.' },
  } satisfies Record<ErrorReason, ErrorCopy>,
  retry: 'Retry',
  retryIn: (seconds: number) => `Retry in ${seconds} s`,
  newChat: 'New chat',
  details: 'Details',
  provider: 'Provider',
  httpStatus: 'HTTP status',
  requestId: 'Request id',
  providerCode: 'Provider code',
  serverMessage: 'Message',
  signInTitle: 'Sign in to Parley',
  signInHint: 'Paste an API token (the start banner prints a sign-in link with the demo token).',
  token: 'API token',
  signIn: 'Sign in',
  signOut: 'Sign out',
  tokenRefused: 'This token was not accepted. Sign in with another one.',
  agents: 'Agents',
  newThread: 'New thread',
  noThreads: 'No threads yet.',
  pickThread: 'Pick a thread or start a new one.',
  connection: { live: 'Connected', connecting: 'Connecting…', reconnecting: 'Reconnecting…', unavailable: 'Server unavailable, retrying…', closed: 'Disconnected', offline: 'Offline: your text stays here until you are back.' },
  you: 'You',
  assistant: 'Assistant',
  reasoning: 'Reasoning',
  tool: (name: string) => `Tool: ${name}`,
  toolState: {
    CALLED: 'running', SUCCEEDED: 'done', FAILED: 'failed', DENIED: 'denied', AWAITING_APPROVAL: 'waiting for approval', AWAITING_ANSWER: 'waiting for an answer',
    CANCELLED: 'cancelled', INTERRUPTED: 'interrupted (it may or may not have taken effect)',
  } as Record<string, string>,
  delegated: 'Delegated task',
  truncated: '(shortened)',
  stopped: 'Stopped',
  interrupted: 'Interrupted',
  steered: 'Sent into the reply',
  attachment: 'Attachment',
  approvalTitle: 'Approval needed',
  approve: 'Approve',
  allowInThread: 'Allow in this thread',
  toolInput: 'Input',
  toolOutput: 'Output',
  toolDuration: (ms: number) => (ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`),
  deny: 'Deny',
  questionTitle: 'The assistant asks',
  answer: 'Answer',
  yourAnswer: 'Your answer',
  orType: 'Or just type your answer below.',
  queue: 'Queued messages',
  queueHelp: 'Drag to reorder, or focus a message and press Alt+Arrow up/down.',
  moveUp: 'Move up',
  moveDown: 'Move down',
  edit: 'Edit',
  save: 'Save',
  cancel: 'Cancel',
  remove: 'Remove',
  steer: 'Send into the current reply',
  steering: 'Going into the current reply…',
  queueChanged: 'The queue was changed elsewhere (another tab?). It shows the current order now; try again.',
  message: 'Message',
  send: 'Send',
  stop: 'Stop',
  attach: 'Attach files',
  sendFailed: (reason: string) => `Not sent: ${reason}. Your text is kept.`,
  keptDrafts: 'Not sent, kept here while you write:',
  sending: 'Sending',
  useDraft: 'Put back',
  offlineWait: 'You are offline. The message is sent when the connection is back.',
  retrying: (seconds: number) => `The provider is busy; trying again in ${seconds} s…`,
};

export type Messages = typeof en;

const de: Messages = {
  errors: {
    RATE_LIMIT: { title: 'Ratenlimit erreicht', advice: 'Der Modellanbieter bittet um eine Pause.' },
    PROVIDER_INTERNAL: { title: 'Vorübergehender Anbieterfehler', advice: 'Beim Modellanbieter ist ein Fehler aufgetreten. Versuche es noch einmal.' },
    TRANSPORT: { title: 'Verbindung zum Anbieter unterbrochen', advice: 'Ein vorübergehender Netzwerkfehler hat die Antwort unterbrochen. Versuche es noch einmal.' },
    QUOTA_EXCEEDED: { title: 'Kein Kontingent mehr', advice: 'Das Konto beim Anbieter hat kein Kontingent oder Guthaben mehr. Bitte wende dich an den Betreiber dieses Dienstes.' },
    AUTHENTICATION: { title: 'Anbieterschlüssel abgelehnt', advice: 'Der Anbieter hat den Schlüssel dieses Dienstes abgelehnt. Bitte wende dich an den Betreiber dieses Dienstes.' },
    AUTHORIZATION: { title: 'Modell nicht erlaubt', advice: 'Der Schlüssel dieses Dienstes darf dieses Modell nicht nutzen. Bitte wende dich an den Betreiber dieses Dienstes.' },
    CONTEXT_LENGTH: { title: 'Unterhaltung zu lang', advice: 'Diese Unterhaltung passt nicht mehr in das Modell. Beginne einen neuen Chat.' },
    CONTENT_POLICY: { title: 'Durch Inhaltsrichtlinie blockiert', advice: 'Der Anbieter hat diese Anfrage blockiert. Formuliere deine Nachricht um und sende sie erneut.' },
    INVALID_REQUEST: { title: 'Anfrage abgelehnt', advice: 'Der Modellanbieter hat diese Anfrage als ungültig abgelehnt.' },
    UNKNOWN: { title: 'Etwas ist schiefgelaufen', advice: 'Etwas Unerwartetes ist schiefgelaufen.' },
    APPLICATION_ERROR: { title: 'Serverfehler', advice: 'Die Antwort ist an einem Fehler auf dem Server gescheitert.' },
  },
  retry: 'Erneut versuchen',
  retryIn: (seconds) => `Erneut versuchen in ${seconds} s`,
  newChat: 'Neuer Chat',
  details: 'Details',
  provider: 'Anbieter',
  httpStatus: 'HTTP-Status',
  requestId: 'Anfrage-ID',
  providerCode: 'Anbietercode',
  serverMessage: 'Meldung',
  signInTitle: 'Bei Parley anmelden',
  signInHint: 'Füge ein API-Token ein (der Startbanner zeigt einen Anmeldelink mit dem Demo-Token).',
  token: 'API-Token',
  signIn: 'Anmelden',
  signOut: 'Abmelden',
  tokenRefused: 'Dieses Token wurde nicht akzeptiert. Melde dich mit einem anderen an.',
  agents: 'Agenten',
  newThread: 'Neuer Thread',
  noThreads: 'Noch keine Threads.',
  pickThread: 'Wähle einen Thread oder beginne einen neuen.',
  connection: { live: 'Verbunden', connecting: 'Verbinde…', reconnecting: 'Verbinde erneut…', unavailable: 'Server nicht erreichbar, neuer Versuch…', closed: 'Getrennt', offline: 'Offline: dein Text bleibt hier, bis du wieder verbunden bist.' },
  you: 'Du',
  assistant: 'Assistent',
  reasoning: 'Überlegungen',
  tool: (name) => `Werkzeug: ${name}`,
  toolState: {
    CALLED: 'läuft', SUCCEEDED: 'fertig', FAILED: 'fehlgeschlagen', DENIED: 'abgelehnt', AWAITING_APPROVAL: 'wartet auf Freigabe', AWAITING_ANSWER: 'wartet auf Antwort',
    CANCELLED: 'abgebrochen', INTERRUPTED: 'unterbrochen (vielleicht schon ausgeführt, vielleicht nicht)',
  },
  delegated: 'Delegierte Aufgabe',
  truncated: '(gekürzt)',
  stopped: 'Gestoppt',
  interrupted: 'Unterbrochen',
  steered: 'In die Antwort gegeben',
  attachment: 'Anhang',
  approvalTitle: 'Freigabe nötig',
  approve: 'Freigeben',
  allowInThread: 'In diesem Thread erlauben',
  toolInput: 'Eingabe',
  toolOutput: 'Ausgabe',
  toolDuration: (ms) => (ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1).replace('.', ',')} s`),
  deny: 'Ablehnen',
  questionTitle: 'Der Assistent fragt',
  answer: 'Antworten',
  yourAnswer: 'Deine Antwort',
  orType: 'Oder tippe deine Antwort einfach unten ein.',
  queue: 'Wartende Nachrichten',
  queueHelp: 'Zum Umordnen ziehen, oder eine Nachricht fokussieren und Alt+Pfeil hoch/runter drücken.',
  moveUp: 'Nach oben',
  moveDown: 'Nach unten',
  edit: 'Bearbeiten',
  save: 'Speichern',
  cancel: 'Abbrechen',
  remove: 'Entfernen',
  steer: 'In die laufende Antwort geben',
  steering: 'Geht in die laufende Antwort…',
  queueChanged: 'Die Warteschlange wurde anderswo geändert (ein anderer Tab?). Sie zeigt jetzt die aktuelle Reihenfolge; versuche es noch einmal.',
  message: 'Nachricht',
  send: 'Senden',
  stop: 'Stopp',
  attach: 'Dateien anhängen',
  sendFailed: (reason) => `Nicht gesendet: ${reason}. Dein Text bleibt erhalten.`,
  keptDrafts: 'Nicht gesendet, hier aufbewahrt, während du schreibst:',
  sending: 'Wird gesendet',
  useDraft: 'Zurückholen',
  offlineWait: 'Du bist offline. Die Nachricht wird gesendet, sobald die Verbindung zurück ist.',
  retrying: (seconds) => `Der Anbieter ist ausgelastet; neuer Versuch in ${seconds} s…`,
};

export const MESSAGES: Record<Locale, Messages> = { en, de };

const MessagesContext = createContext<Messages>(en);

/** The copy of the chat in one language, for every component below it. */
export const MessagesProvider = MessagesContext.Provider;

export function useMessages(): Messages {
  return useContext(MessagesContext);
}
