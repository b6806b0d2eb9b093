import { z } from 'zod';

/**
 * Spanish text for the validation issues a schema gives no message of its own (a query's `limit`, an
 * enum, a uuid): without it zod answers in English ("Invalid input: expected number, received NaN")
 * and that text reaches the client as the 400's `message`. A schema's own message (the spec's texts in
 * contracts) always wins: zod consults this map only for issues that have none.
 */
const TYPE_NAMES: Record<string, string> = {
  string: 'un texto',
  number: 'un número',
  int: 'un número entero',
  bigint: 'un número entero',
  boolean: 'verdadero o falso',
  array: 'una lista',
  object: 'un objeto',
  date: 'una fecha',
};

const SIZE_UNITS: Record<string, [string, string]> = {
  string: ['carácter', 'caracteres'],
  array: ['elemento', 'elementos'],
  set: ['elemento', 'elementos'],
  file: ['byte', 'bytes'],
};

const FORMAT_NAMES: Record<string, string> = {
  email: 'Email inválido',
  uuid: 'Identificador inválido',
  guid: 'Identificador inválido',
  url: 'Dirección web inválida',
  datetime: 'Fecha y hora inválidas',
  date: 'Fecha inválida',
  time: 'Hora inválida',
};

const plural = (n: number | bigint, [one, many]: [string, string]) => `${n} ${Number(n) === 1 ? one : many}`;

/** The Spanish message of one zod issue that carries no message of its own. */
export function spanishZodMessage(issue: z.core.$ZodRawIssue): string {
  switch (issue.code) {
    case 'invalid_type': {
      const expected = TYPE_NAMES[issue.expected] ?? 'otro tipo de dato';
      if (issue.input === undefined || issue.input === null) return `Campo requerido: se esperaba ${expected}`;
      return `Valor inválido: se esperaba ${expected}`;
    }
    case 'too_small': {
      const unit = SIZE_UNITS[issue.origin];
      const min = issue.minimum as number;
      if (unit) return issue.inclusive === false ? `Debe tener más de ${plural(min, unit)}` : `Debe tener al menos ${plural(min, unit)}`;
      return issue.inclusive === false ? `Debe ser mayor que ${min}` : `Debe ser mayor o igual a ${min}`;
    }
    case 'too_big': {
      const unit = SIZE_UNITS[issue.origin];
      const max = issue.maximum as number;
      if (unit) return issue.inclusive === false ? `Debe tener menos de ${plural(max, unit)}` : `No puede tener más de ${plural(max, unit)}`;
      return issue.inclusive === false ? `Debe ser menor que ${max}` : `Debe ser menor o igual a ${max}`;
    }
    case 'invalid_format':
      return FORMAT_NAMES[issue.format] ?? 'Formato inválido';
    case 'not_multiple_of':
      return `Debe ser múltiplo de ${String(issue.divisor)}`;
    case 'invalid_value':
      return issue.values.length > 0 ? `Valor inválido: usa ${issue.values.map((v) => String(v)).join(', ')}` : 'Valor inválido';
    case 'unrecognized_keys':
      return `Campos no permitidos: ${issue.keys.join(', ')}`;
    case 'invalid_key':
    case 'invalid_element':
    case 'invalid_union':
    case 'custom':
    default:
      return 'Valor inválido';
  }
}

let installed = false;

/** Installs the Spanish messages in zod's global configuration (idempotent; every service and the gateway load it). */
export function installSpanishZodMessages(): void {
  if (installed) return;
  installed = true;
  z.config({ customError: (issue) => spanishZodMessage(issue) });
}

installSpanishZodMessages();
