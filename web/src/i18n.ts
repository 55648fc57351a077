import type { ErrorReason } from '@parley/client';
import { createContext, useContext } from 'react';
import { de } from './i18n-de.ts';
import { en, type Messages } from './i18n-en.ts';

export type { Messages };

// The chat's own words in English and German. Error cards are keyed by the failure's `reason`
// (the affordance depends on it); the server's localized `message` goes under the details.

export type Locale = 'en' | 'de';

export function localeOf(tag: string | null | undefined): Locale {
  return tag?.toLowerCase().startsWith('de') ? 'de' : 'en';
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

export const MESSAGES: Record<Locale, Messages> = { en, de };

const MessagesContext = createContext<Messages>(en);

/** The copy of the chat in one language, for every component below it. */
export const MessagesProvider = MessagesContext.Provider;

export function useMessages(): Messages {
  return useContext(MessagesContext);
}
