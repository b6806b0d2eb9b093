import { z } from 'zod';
import { ConfigError, parseConfig, portVariable } from './config';

const valid = { DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/tiendita', INTERNAL_SECRET: '0123456789abcdef' };

function problem(env: Record<string, string | undefined>, shape?: z.ZodRawShape): ConfigError {
  try {
    parseConfig(shape ?? {}, env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('parseConfig accepted a bad environment');
}

describe('parseConfig', () => {
  it('applies the defaults of the base variables', () => {
    const config = parseConfig(undefined, valid);
    expect(config).toEqual({
      DATABASE_URL: valid.DATABASE_URL,
      INTERNAL_SECRET: valid.INTERNAL_SECRET,
      PORT: 3000,
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      EVENT_TRANSPORT: 'postgres',
      KAFKA_BROKERS: [],
      DATA_DIR: '.data',
      KAFKA_SSL: '0',
    });
  });

  it('names a missing variable in one line', () => {
    const error = problem({ INTERNAL_SECRET: valid.INTERNAL_SECRET });
    expect(error.message).toBe('Configuración inválida: DATABASE_URL es requerida');
    expect(error.message).not.toContain('\n');
    expect(error.variables).toEqual(['DATABASE_URL']);
  });

  it('treats an empty variable as missing', () => {
    expect(problem({ ...valid, DATABASE_URL: '' }).message).toBe('Configuración inválida: DATABASE_URL es requerida');
  });

  it('rejects a short INTERNAL_SECRET', () => {
    expect(problem({ ...valid, INTERNAL_SECRET: 'corto' }).message).toBe('Configuración inválida: INTERNAL_SECRET debe tener al menos 16 caracteres');
  });

  it('rejects a DATABASE_URL that is not a postgres URL', () => {
    expect(problem({ ...valid, DATABASE_URL: 'mysql://x' }).message).toBe('Configuración inválida: DATABASE_URL debe ser una URL postgres:// o postgresql://');
  });

  it('rejects a bad PORT and a bad EVENT_TRANSPORT on the same line', () => {
    const error = problem({ ...valid, PORT: 'abc', EVENT_TRANSPORT: 'rabbit' });
    expect(error.message).toBe("Configuración inválida: PORT debe ser un número de puerto; EVENT_TRANSPORT debe ser 'postgres' o 'kafka'");
    expect(error.variables).toEqual(['PORT', 'EVENT_TRANSPORT']);
  });

  it('requires KAFKA_BROKERS with the kafka transport and splits the list', () => {
    expect(problem({ ...valid, EVENT_TRANSPORT: 'kafka' }).message).toBe('Configuración inválida: KAFKA_BROKERS es requerida cuando EVENT_TRANSPORT=kafka');
    const config = parseConfig(undefined, { ...valid, EVENT_TRANSPORT: 'kafka', KAFKA_BROKERS: 'k1:9092, k2:9092' });
    expect(config.KAFKA_BROKERS).toEqual(['k1:9092', 'k2:9092']);
  });

  it('extends the base with a service shape that may override PORT', () => {
    const shape = { PORT: portVariable(3002), CATALOG_IMAGES_DIR: z.string().default('imagenes') };
    const config = parseConfig(shape, valid);
    expect(config.PORT).toBe(3002);
    expect(config.CATALOG_IMAGES_DIR).toBe('imagenes');
    expect(parseConfig(shape, { ...valid, PORT: '4100' }).PORT).toBe(4100);
    expect(problem(valid, { SMTP_URL: z.string() }).message).toBe('Configuración inválida: SMTP_URL es requerida');
  });
});

describe('Kafka TLS and SASL variables', () => {
  it('takes a service principal over TLS', () => {
    const config = parseConfig(undefined, { ...valid, KAFKA_SSL: '1', KAFKA_SASL_MECHANISM: 'scram-sha-512', KAFKA_SASL_USERNAME: 'catalog', KAFKA_SASL_PASSWORD: 's3creto' });
    expect(config).toMatchObject({ KAFKA_SSL: '1', KAFKA_SASL_MECHANISM: 'scram-sha-512', KAFKA_SASL_USERNAME: 'catalog', KAFKA_SASL_PASSWORD: 's3creto' });
  });

  it('names what is wrong in one line', () => {
    expect(problem({ ...valid, KAFKA_SSL: 'si' }).message).toBe('Configuración inválida: KAFKA_SSL debe ser 0 o 1');
    expect(problem({ ...valid, KAFKA_SASL_MECHANISM: 'gssapi', KAFKA_SASL_USERNAME: 'a', KAFKA_SASL_PASSWORD: 'b' }).message).toBe(
      'Configuración inválida: KAFKA_SASL_MECHANISM debe ser plain, scram-sha-256 o scram-sha-512',
    );
    expect(problem({ ...valid, KAFKA_SASL_MECHANISM: 'plain' }).message).toBe(
      'Configuración inválida: KAFKA_SASL_USERNAME es requerida cuando KAFKA_SASL_MECHANISM está definida; KAFKA_SASL_PASSWORD es requerida cuando KAFKA_SASL_MECHANISM está definida',
    );
    expect(problem({ ...valid, KAFKA_SSL_CA_FILE: '/no/existe/ca.pem' }).message).toBe('Configuración inválida: KAFKA_SSL_CA_FILE debe ser un archivo existente: /no/existe/ca.pem');
  });
});
