import type { Resolution, Suspension } from '@parley/client';
import { useState, type FormEvent } from 'react';
import { useMessages } from './i18n.ts';

/** One property of a tool server's form, as MCP elicitation allows it (flat, primitive types). */
interface Field {
  type?: string;
  title?: string;
  description?: string;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  default?: unknown;
  enum?: string[];
  enumNames?: string[];
  oneOf?: { const: string; title?: string }[];
  items?: { enum?: string[]; anyOf?: { const: string; title?: string }[] };
}

interface Form {
  message: string;
  server: string;
  tool: string;
  properties: [string, Field][];
  required: string[];
}

function formOf(card: Suspension): Form {
  const payload = (card.payload ?? {}) as {
    message?: string;
    server?: string;
    tool?: string;
    fields?: string[];
    requestedSchema?: { properties?: Record<string, Field>; required?: string[] };
  };
  const properties = payload.requestedSchema?.properties ?? {};
  // `fields` is the server's order (a reloaded schema's keys come back in the database's order).
  const order = payload.fields ?? Object.keys(properties);
  return {
    message: payload.message ?? '',
    server: payload.server ?? '',
    tool: payload.tool ?? '',
    properties: order.filter((name) => Object.hasOwn(properties, name)).map((name) => [name, properties[name]!] as [string, Field]),
    required: payload.requestedSchema?.required ?? [],
  };
}

/** A choice's options as value and label: `oneOf`/`anyOf` titles, or `enum` with `enumNames`. */
function choicesOf(field: Field): { value: string; label: string }[] | null {
  const titled = field.oneOf ?? field.items?.anyOf;
  if (titled) return titled.map((option) => ({ value: option.const, label: option.title ?? option.const }));
  const values = field.enum ?? field.items?.enum;
  return values ? values.map((value, index) => ({ value, label: field.enumNames?.[index] ?? value })) : null;
}

const INPUT_TYPES: Record<string, string> = { email: 'email', uri: 'url', date: 'date', 'date-time': 'datetime-local' };

/** The answer as the server's schema types it: numbers as numbers, an empty optional field left out. */
function contentOf(form: Form, values: Record<string, unknown>): Record<string, unknown> {
  const content: Record<string, unknown> = {};
  for (const [name, field] of form.properties) {
    const value = values[name];
    if (value === undefined || value === '') continue;
    if ((field.type === 'number' || field.type === 'integer') && typeof value === 'string') content[name] = Number(value);
    else if (field.format === 'date-time' && typeof value === 'string' && !/Z|[+-]\d{2}:\d{2}$/.test(value)) content[name] = new Date(value).toISOString();
    else content[name] = value;
  }
  return content;
}

/**
 * A tool server's question during a call (an ELICITATION card): its message and a form of its
 * fields; Accept sends the form (the server checks nothing Parley has not), Decline and Cancel
 * send no content. The call waits meanwhile; a refused answer says why and keeps what was typed.
 */
export function ElicitationCard({ card, resolve, pending, problem }: { card: Suspension; resolve: (resolution: Resolution) => void; pending: boolean; problem?: string }) {
  const t = useMessages();
  const form = formOf(card);
  const [values, setValues] = useState<Record<string, unknown>>(() =>
    Object.fromEntries(form.properties.filter(([, field]) => field.default !== undefined).map(([name, field]) => [name, field.default])),
  );
  const set = (name: string, value: unknown) => setValues((current) => ({ ...current, [name]: value }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    resolve({ elicitation: { action: 'ACCEPT', content: contentOf(form, values) } });
  };
  return (
    <form className="card question elicitation" aria-label={t.elicitationTitle} onSubmit={submit}>
      <strong>{t.elicitationTitle}</strong>
      <p className="hint">{t.elicitationFrom(`${form.server}/${form.tool}`)}</p>
      <p>{form.message}</p>
      {form.properties.map(([name, field]) => (
        <FieldInput key={name} name={name} field={field} required={form.required.includes(name)} value={values[name]} onChange={(value) => set(name, value)} />
      ))}
      <div className="actions">
        <button type="submit" disabled={pending}>
          {t.elicitationAccept}
        </button>
        <button type="button" disabled={pending} onClick={() => resolve({ elicitation: { action: 'DECLINE' } })}>
          {t.elicitationDecline}
        </button>
        <button type="button" disabled={pending} onClick={() => resolve({ elicitation: { action: 'CANCEL' } })}>
          {t.elicitationCancel}
        </button>
      </div>
      {problem && <p role="alert">{problem}</p>}
    </form>
  );
}

function FieldInput({ name, field, required, value, onChange }: { name: string; field: Field; required: boolean; value: unknown; onChange: (value: unknown) => void }) {
  const label = field.title ?? name;
  const choices = choicesOf(field);
  if (field.type === 'boolean') {
    return (
      <label>
        <input type="checkbox" name={name} checked={value === true} onChange={(event) => onChange(event.target.checked)} /> {label}
      </label>
    );
  }
  if (field.type === 'array' && choices) {
    const picked = Array.isArray(value) ? (value as string[]) : [];
    return (
      <fieldset>
        <legend>{label}</legend>
        {choices.map((choice) => (
          <label key={choice.value}>
            <input
              type="checkbox"
              name={name}
              value={choice.value}
              checked={picked.includes(choice.value)}
              onChange={(event) => onChange(event.target.checked ? [...picked, choice.value] : picked.filter((entry) => entry !== choice.value))}
            />{' '}
            {choice.label}
          </label>
        ))}
      </fieldset>
    );
  }
  if (choices) {
    return (
      <label>
        {label}{' '}
        <select name={name} required={required} value={typeof value === 'string' ? value : ''} onChange={(event) => onChange(event.target.value)}>
          <option value="">—</option>
          {choices.map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.label}
            </option>
          ))}
        </select>
      </label>
    );
  }
  const numeric = field.type === 'number' || field.type === 'integer';
  return (
    <label title={field.description}>
      {label}{' '}
      <input
        name={name}
        type={numeric ? 'number' : (INPUT_TYPES[field.format ?? ''] ?? 'text')}
        required={required}
        step={field.type === 'integer' ? 1 : numeric ? 'any' : undefined}
        min={field.minimum}
        max={field.maximum}
        minLength={field.minLength}
        maxLength={field.maxLength}
        value={typeof value === 'string' || typeof value === 'number' ? value : ''}
        onChange={(event) => onChange(event.target.value)}
      />
    </label>
  );
}
