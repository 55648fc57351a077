import { InvalidInputError } from './errors.ts';

/**
 * A form-mode elicitation's `requestedSchema`: flat properties of the types the MCP specification
 * allows (string with format and length, number or integer with bounds, boolean, a single choice
 * by `enum` or `oneOf`, several by an array of them). The MCP SDK refused any other shape before
 * the card was opened; this reads the answer against it.
 */
export interface RequestedSchema {
  type: 'object';
  properties: Record<string, FieldSchema>;
  required?: string[];
}

interface FieldSchema {
  type: 'string' | 'number' | 'integer' | 'boolean' | 'array';
  title?: string;
  minLength?: number;
  maxLength?: number;
  format?: 'email' | 'uri' | 'date' | 'date-time';
  minimum?: number;
  maximum?: number;
  enum?: string[];
  oneOf?: { const: string }[];
  minItems?: number;
  maxItems?: number;
  items?: { enum?: string[]; anyOf?: { const: string }[] };
}

export type ElicitedContent = Record<string, string | number | boolean | string[]>;

const FIELD = 'elicitation.content';
const FORMATS: Record<NonNullable<FieldSchema['format']>, (value: string) => boolean> = {
  email: (value) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value),
  uri: (value) => URL.canParse(value) && /^[a-z][a-z0-9+.-]*:/i.test(value),
  date: (value) => /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`)),
  'date-time': (value) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(value) && !Number.isNaN(Date.parse(value)),
};

/** The answer as the server gets it, or an InvalidInputError naming the first field that does not fit. */
export function checkedContent(schema: RequestedSchema, content: unknown): ElicitedContent {
  if (typeof content !== 'object' || content === null || Array.isArray(content)) {
    throw new InvalidInputError(FIELD, 'must be an object of the form’s fields.');
  }
  const given = content as Record<string, unknown>;
  for (const name of Object.keys(given)) {
    if (!Object.hasOwn(schema.properties, name)) throw new InvalidInputError(FIELD, `${name} is not a field of this form.`);
  }
  const checked: ElicitedContent = {};
  for (const [name, field] of Object.entries(schema.properties)) {
    const value = given[name];
    if (value === undefined || value === null) {
      if (schema.required?.includes(name)) throw new InvalidInputError(FIELD, `${name} is required.`);
      continue;
    }
    checked[name] = checkedValue(name, field, value);
  }
  return checked;
}

function checkedValue(name: string, field: FieldSchema, value: unknown): string | number | boolean | string[] {
  const refuse = (why: string): never => {
    throw new InvalidInputError(FIELD, `${name} ${why}`);
  };
  switch (field.type) {
    case 'boolean':
      return typeof value === 'boolean' ? value : refuse('must be true or false.');
    case 'number':
    case 'integer': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return refuse('must be a number.');
      if (field.type === 'integer' && !Number.isInteger(value)) refuse('must be a whole number.');
      if (field.minimum !== undefined && value < field.minimum) refuse(`must be at least ${field.minimum}.`);
      if (field.maximum !== undefined && value > field.maximum) refuse(`must be at most ${field.maximum}.`);
      return value;
    }
    case 'string': {
      if (typeof value !== 'string') return refuse('must be text.');
      const choices = field.enum ?? field.oneOf?.map((option) => option.const);
      if (choices) return choices.includes(value) ? value : refuse(`must be one of: ${choices.join(', ')}.`);
      if (field.minLength !== undefined && value.length < field.minLength) refuse(`must be at least ${field.minLength} characters.`);
      if (field.maxLength !== undefined && value.length > field.maxLength) refuse(`must be at most ${field.maxLength} characters.`);
      if (field.format && !FORMATS[field.format](value)) refuse(`must be a valid ${field.format}.`);
      return value;
    }
    case 'array': {
      const choices = field.items?.enum ?? field.items?.anyOf?.map((option) => option.const) ?? [];
      if (!Array.isArray(value) || value.some((entry) => typeof entry !== 'string' || !choices.includes(entry))) {
        return refuse(`must be a list of: ${choices.join(', ')}.`);
      }
      const picked = [...new Set(value as string[])];
      if (field.minItems !== undefined && picked.length < field.minItems) refuse(`needs at least ${field.minItems} choices.`);
      if (field.maxItems !== undefined && picked.length > field.maxItems) refuse(`allows at most ${field.maxItems} choices.`);
      return picked;
    }
    default:
      return refuse('has a type this form does not know.');
  }
}
