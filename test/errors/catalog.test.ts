import { describe, expect, it } from 'vitest';
import {
  LOCALES,
  MESSAGES,
  isMessageKey,
  placeholdersOf,
  translate,
  type MessageKey,
} from '../../src/i18n/catalog.ts';
import { localizeFailure } from '../../src/errors/recorded-failure.ts';
import { ERROR_REASONS, type ClassifiedFailure, type ErrorReason } from '../../src/errors/taxonomy.ts';

const EN_KEYS = Object.keys(MESSAGES.en) as MessageKey[];

function failureOf(reason: ErrorReason, overrides: Partial<ClassifiedFailure> = {}): ClassifiedFailure {
  return {
    reason,
    retryable: false,
    retryAfterS: null,
    provider: null,
    httpStatus: null,
    providerCode: null,
    requestId: null,
    detail: 'raw provider text',
    ...overrides,
  };
}

describe('message catalog', () => {
  it('has every key in every language, and no extra ones', () => {
    for (const locale of LOCALES) {
      expect(Object.keys(MESSAGES[locale]).sort()).toEqual([...EN_KEYS].sort());
    }
  });

  it('uses the same placeholders in every language', () => {
    for (const key of EN_KEYS) {
      const english = placeholdersOf(MESSAGES.en[key]).sort();
      for (const locale of LOCALES) {
        expect(placeholdersOf(MESSAGES[locale][key]).sort(), `${locale} ${key}`).toEqual(english);
      }
    }
  });

  it('has no empty or untranslated German text', () => {
    for (const key of EN_KEYS) {
      expect(MESSAGES.de[key].trim(), key).not.toBe('');
      expect(MESSAGES.de[key], key).not.toBe(MESSAGES.en[key]);
    }
  });

  it('has a key per error reason and the run-level keys the server needs', () => {
    for (const reason of ERROR_REASONS) {
      expect(isMessageKey(`error.${reason.toLowerCase()}`), reason).toBe(true);
    }
    for (const key of ['error.interrupted', 'refusal.concurrency', 'refusal.budget']) {
      expect(isMessageKey(key), key).toBe(true);
    }
  });
});

describe('translate', () => {
  it('fills {name} placeholders', () => {
    expect(translate('en', 'refusal.concurrency', { limit: 2 })).toBe('This agent is already running 2 replies; try again when one finishes.');
    expect(translate('en', 'error.authentication', { provider: 'OpenAI' })).toBe(
      "Your OpenAI key was rejected — check it in the server's provider settings.",
    );
  });

  it('formats numbers for the locale', () => {
    expect(translate('en', 'refusal.budget', { budget: 100000 })).toContain('100,000');
    expect(translate('de', 'refusal.budget', { budget: 100000 })).toContain('100.000');
    expect(translate('de', 'retry.scheduled', { delayS: 2.5, attempt: 2 })).toBe('Neuer Versuch in 2,5 s (Versuch 2) …');
  });

  it('leaves a placeholder without a param visible, and renders null as empty', () => {
    expect(translate('en', 'refusal.concurrency')).toContain('{limit}');
    expect(translate('en', 'refusal.concurrency', { limit: null })).toBe('This agent is already running  replies; try again when one finishes.');
  });
});

describe('localizeFailure', () => {
  it('gives the rate-limit copy with the wait in whole seconds, or without one', () => {
    expect(localizeFailure(failureOf('RATE_LIMIT', { retryAfterS: 6.2 }), 'en')).toEqual({
      messageKey: 'error.rate_limit',
      messageParams: { retryAfterS: 7 },
      message: 'Rate limited by the model provider — try again in 7s.',
    });
    expect(localizeFailure(failureOf('RATE_LIMIT'), 'de').messageKey).toBe('error.rate_limit.no_delay');
  });

  it('names the provider in authentication copy, with a neutral variant when it is unknown', () => {
    expect(localizeFailure(failureOf('AUTHENTICATION', { provider: 'anthropic' }), 'de').message).toBe(
      'Ihr Anthropic-Schlüssel wurde abgelehnt – prüfen Sie ihn in den Anbieter-Einstellungen des Servers.',
    );
    expect(localizeFailure(failureOf('AUTHENTICATION'), 'en').message).not.toContain('{provider}');
  });

  it('gives actionable copy for context length', () => {
    expect(localizeFailure(failureOf('CONTEXT_LENGTH'), 'en').message).toBe(
      'This conversation is too long — compact it or start a new chat.',
    );
  });

  it('uses a failure’s own message key (an ApplicationError) before the reason copy', () => {
    const localized = localizeFailure(
      failureOf('APPLICATION_ERROR', { messageKey: 'error.tool_failed', messageParams: { tool: 'search' } }),
      'de',
    );
    expect(localized.messageKey).toBe('error.tool_failed');
    expect(localized.message).toContain('„search“');
  });

  it('never shows the raw provider detail as the message and leaves no placeholder unfilled', () => {
    for (const reason of ERROR_REASONS) {
      for (const locale of LOCALES) {
        for (const provider of [null, 'openai']) {
          const { message } = localizeFailure(failureOf(reason, { provider, retryAfterS: 3 }), locale);
          expect(message).not.toContain('raw provider text');
          expect(message).not.toMatch(/\{\w+\}/);
        }
      }
    }
  });
});
